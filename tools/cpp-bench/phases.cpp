// Where spine-cpp 4.2's frame goes, by phase: wall time per frame of `state.update + apply`
// and of `skeleton.update + updateWorldTransform(Physics_Update)`, timed separately over
// many frames (a clock read costs ~20 ns, about 1 % of a spineboy phase). The Rust side is
// `cargo run --release -p spine-anim --example frame_phases`. Our harness (README.md); it
// links against spine-cpp built from the official sources outside this repository.
// usage: phases SKEL ATLAS ANIM SKIN|- FRAMES
#include <spine/spine.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
using namespace spine;
namespace spine { SpineExtension *getDefaultExtension() { return new DefaultSpineExtension(); } }
struct NopLoader : public TextureLoader {
  void load(AtlasPage &page, const String &path) override { page.texture = &page; }
  void unload(void *) override {}
};
typedef std::chrono::steady_clock Clock;
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: phases SKEL ATLAS ANIM SKIN|- FRAMES\n"); return 2; }
  const char *file = argv[1], *atlasPath = argv[2], *anim = argv[3], *skin = argv[4];
  long frames = atol(argv[5]);
  NopLoader loader;
  Atlas atlas(atlasPath, &loader);
  SkeletonData *data;
  if (strstr(file, ".json")) { SkeletonJson j(&atlas); data = j.readSkeletonDataFile(file); }
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
  double apply = 0, world = 0;
  for (long i = 0; i < frames; i++) {
    auto a = Clock::now();
    st.update(dt); st.apply(sk);
    auto b = Clock::now();
    sk.update(dt); sk.updateWorldTransform(Physics_Update);
    auto c = Clock::now();
    apply += std::chrono::duration<double>(b - a).count();
    world += std::chrono::duration<double>(c - b).count();
  }
  printf("apply %.0f ns, world %.0f ns per frame\n", apply * 1e9 / frames, world * 1e9 / frames);
  delete data;
  return 0;
}
