// libFuzzer target: the sweep preset reader (`sweep --preset FILE`).
#include "harness/sweep/preset.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return elsbench::fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    const elsbench::SweepSpec spec = elsbench::preset_from_text(text, "fuzz.json");
    // The copy a results file keeps is read back by --resume.
    elsbench::sweep_spec_from_json(elsbench::to_json(spec), "fuzz.json (written back)");
  });
}
