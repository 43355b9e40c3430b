// Spine's two-colour tint, as skel-render's reference rasterizer shades it.
//
// Vertex colours arrive as the packed 0xAARRGGBB words of the render commands, read as
// Unorm8x4 (little-endian bytes: b, g, r, a). The vertex stage prepares them as spine-ts
// does: for premultiplied pages `light.rgb *= light.a` and `dark.rgb *= light.a` (and the
// tint's `dark.a` is 1), otherwise they are used as they are (`dark.a` 0). The fragment
// stage computes `a = tex.a * light.a`,
// `rgb = ((tex.a - 1) * dark.a + 1 - tex.rgb) * dark.rgb + tex.rgb * light.rgb`.

struct View {
    // Pixels per world unit, pixel x and y of the world origin, unused.
    transform: vec4<f32>,
    // Target width and height in pixels, unused, unused.
    size: vec4<f32>,
};

@group(0) @binding(0) var<uniform> view: View;
@group(1) @binding(0) var page: texture_2d<f32>;
@group(1) @binding(1) var page_sampler: sampler;

struct VertexIn {
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) light: vec4<f32>,
    @location(3) dark: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) light: vec4<f32>,
    @location(2) dark: vec4<f32>,
};

// World (y up) -> pixel (y down): px = x * scale + offset_x, py = offset_y - y * scale;
// then pixel -> clip space.
fn clip_position(p: vec2<f32>) -> vec4<f32> {
    let t = view.transform;
    let px = p.x * t.x + t.y;
    let py = t.z - p.y * t.x;
    return vec4<f32>(px / view.size.x * 2.0 - 1.0, 1.0 - py / view.size.y * 2.0, 0.0, 1.0);
}

@vertex
fn vs_straight(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = clip_position(v.position);
    out.uv = v.uv;
    out.light = v.light.zyxw;
    out.dark = vec4<f32>(v.dark.zyx, 0.0);
    return out;
}

@vertex
fn vs_pma(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = clip_position(v.position);
    out.uv = v.uv;
    let l = v.light.zyxw;
    out.light = vec4<f32>(l.rgb * l.a, l.a);
    out.dark = vec4<f32>(v.dark.zyx * l.a, 0.0);
    return out;
}

@fragment
fn fs_straight(v: VertexOut) -> @location(0) vec4<f32> {
    let tex = textureSample(page, page_sampler, v.uv);
    let rgb = (vec3<f32>(1.0) - tex.rgb) * v.dark.rgb + tex.rgb * v.light.rgb;
    return vec4<f32>(rgb, tex.a * v.light.a);
}

@fragment
fn fs_pma(v: VertexOut) -> @location(0) vec4<f32> {
    let tex = textureSample(page, page_sampler, v.uv);
    let rgb = (vec3<f32>(tex.a) - tex.rgb) * v.dark.rgb + tex.rgb * v.light.rgb;
    return vec4<f32>(rgb, tex.a * v.light.a);
}
