// Same-session spine-cpp 4.2 timings beside `skel bench` (tools/cpp-bench/README.md). Our harness; it links
// against spine-cpp built from the official sources outside this repository.
#include <spine/spine.h>
#include <spine/SkeletonRenderer.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#include <functional>
using namespace spine;
namespace spine { SpineExtension *getDefaultExtension() { return new DefaultSpineExtension(); } }
struct NopLoader : public TextureLoader {
  void load(AtlasPage &page, const String &path) override { page.texture = &page; }
  void unload(void *) override {}
};
typedef std::chrono::steady_clock Clock;
static double measure(double budget_s, std::function<void()> f) {
  auto t0 = Clock::now(); f();
  double one = std::chrono::duration<double>(Clock::now() - t0).count();
  if (one <= 0) one = 1e-9;
  long calls = std::max(1L, std::min(1000000L, (long)(1e-3 / one)));
  auto warm = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget_s / 4));
  while (Clock::now() < warm) f();
  std::vector<double> per;
  auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget_s));
  while (per.size() < 5 || (Clock::now() < end && per.size() < 100000)) {
    auto t = Clock::now();
    for (long i = 0; i < calls; i++) f();
    per.push_back(std::chrono::duration<double>(Clock::now() - t).count() * 1e9 / calls);
  }
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}
int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: bench FILE ATLAS ANIM SKIN|- [budget_s | phases FRAMES]\n");
    return 2;
  }
  const char *file = argv[1], *atlasPath = argv[2], *anim = argv[3], *skin = argv[4];
  // `phases FRAMES`: the frame's two phases timed apart over FRAMES frames (README.md).
  long phases = argc > 6 && strcmp(argv[5], "phases") == 0 ? atol(argv[6]) : 0;
  double budget = argc > 5 && !phases ? atof(argv[5]) : 1.0;
  bool json = strstr(file, ".json") != nullptr;
  NopLoader loader;
  double load_ns = phases ? 0 : measure(budget, [&]() {
    Atlas *atlas = new Atlas(atlasPath, &loader);
    SkeletonData *d;
    if (json) { SkeletonJson j(atlas); d = j.readSkeletonDataFile(file); }
    else { SkeletonBinary b(atlas); d = b.readSkeletonDataFile(file); }
    delete d; delete atlas;
  });
  Atlas atlas(atlasPath, &loader);
  SkeletonData *data;
  if (json) { SkeletonJson j(&atlas); data = j.readSkeletonDataFile(file); }
  else { SkeletonBinary b(&atlas); data = b.readSkeletonDataFile(file); }
  if (!data) { fprintf(stderr, "load failed\n"); return 1; }
  Skeleton sk(data);
  if (strcmp(skin, "-") != 0) sk.setSkin(skin);
  else if (data->getSkins().size() > 1) sk.setSkin(data->getSkins()[1]);
  sk.setToSetupPose();
  AnimationStateData asd(data); asd.setDefaultMix(0.2f);
  AnimationState st(&asd);
  st.setAnimation(0, anim, true);
  float dt = 1.0f / 60.0f;
  if (phases) {
    // Wall time per frame of `state.update + apply` and of `skeleton.update +
    // updateWorldTransform`, timed apart (a clock read costs ~20 ns); the Rust side is the
    // spine-anim example `frame_phases`.
    double apply = 0, world = 0;
    for (long i = 0; i < phases; i++) {
      auto a = Clock::now();
      st.update(dt); st.apply(sk);
      auto b = Clock::now();
      sk.update(dt); sk.updateWorldTransform(Physics_Update);
      auto c = Clock::now();
      apply += std::chrono::duration<double>(b - a).count();
      world += std::chrono::duration<double>(c - b).count();
    }
    printf("apply %.0f ns, world %.0f ns per frame\n", apply * 1e9 / phases, world * 1e9 / phases);
    delete data;
    return 0;
  }
  double frame_ns = measure(budget, [&]() {
    st.update(dt); st.apply(sk); sk.update(dt); sk.updateWorldTransform(Physics_Update);
  });
  SkeletonRenderer r;
  double cmd_ns = measure(budget, [&]() {
    RenderCommand *c = r.render(sk);
    volatile int n = 0; while (c) { n += c->numVertices; c = c->next; }
  });
  printf("{\"load_us\": %.3f, \"frame_ns\": %.1f, \"commands_ns\": %.1f}\n", load_ns / 1000.0, frame_ns, cmd_ns);
  delete data;
  return 0;
}
