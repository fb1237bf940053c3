// elsbench report renders from the fixtures in tests/data/results/: every figure exists as a
// valid PNG and SVG, and the Markdown and HTML tables hold the fixtures' numbers.
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "products/catalog.hpp"
#include "tests/unit/report_binary.hpp"

namespace elsbench {
namespace {

namespace fs = std::filesystem;
using testing::elsbench_binary;
using testing::run_command;
using testing::shell_quoted;

const std::array<std::string, 5> kFigures{"time_vs_grid", "speedup", "memory_vs_grid", "error_vs_time",
                                          "cost_per_1000"};

std::string fixture(const std::string& name) { return project_root() + "/tests/data/results/" + name; }

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int render(const fs::path& out, const std::string& extra = "") {
  return run_command(shell_quoted(elsbench_binary()) + " report " + shell_quoted(fixture("devbox-cpu.json")) + " " +
                     shell_quoted(fixture("colab-t4.json")) + " --out " + shell_quoted(out.string()) + " " + extra +
                     " > " + shell_quoted((out.parent_path() / (out.filename().string() + ".log")).string()) + " 2>&1");
}

// Rendered once for all test cases: matplotlib takes seconds to start.
struct Rendered {
  fs::path dir = fs::temp_directory_path() / ("elsbench-report-test-" + std::to_string(getpid()));
  int status = render(dir);
  std::string md = read_file(dir / "report.md");
  std::string html = read_file(dir / "report.html");
  ~Rendered() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    fs::remove(dir.string() + ".log", ignored);
  }
};

const Rendered& rendered() {
  static const Rendered r;
  return r;
}

std::uint32_t crc32(const std::string& bytes, std::size_t from, std::size_t length) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t i = from; i < from + length; ++i) {
    crc ^= static_cast<unsigned char>(bytes[i]);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

struct PngCheck {
  std::uint32_t width = 0, height = 0;
  bool chunks_ok = true;  // every chunk's CRC holds, IHDR first, IDAT present, IEND last
};

PngCheck check_png(const std::string& png) {
  PngCheck check;
  const std::string signature("\x89PNG\r\n\x1a\n", 8);
  if (png.compare(0, 8, signature) != 0) return {0, 0, false};
  std::size_t at = 8;
  bool idat = false;
  std::string last;
  while (at + 12 <= png.size()) {
    const std::uint32_t length = big_endian(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (at + 12 + length > png.size() || crc32(png, at + 4, 4 + length) != big_endian(png, at + 8 + length))
      return {0, 0, false};
    if (at == 8 && type != "IHDR") check.chunks_ok = false;
    if (type == "IHDR") {
      check.width = big_endian(png, at + 8);
      check.height = big_endian(png, at + 12);
    }
    idat = idat || type == "IDAT";
    last = type;
    at += 12 + length;
  }
  check.chunks_ok = check.chunks_ok && idat && last == "IEND" && at == png.size();
  return check;
}

// The Markdown table row that contains `key`.
std::string row_with(const std::string& md, const std::string& key) {
  std::istringstream lines(md);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind("| ", 0) == 0 && line.find(key) != std::string::npos) return line;
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(report_command_succeeds) {
  BOOST_TEST_REQUIRE(rendered().status == 0, "elsbench report failed; see " << rendered().dir.string() << ".log");
  for (const char* f : {"report.md", "report.html"}) BOOST_TEST(fs::file_size(rendered().dir / f) > 1000u);
}

BOOST_AUTO_TEST_CASE(every_figure_is_a_valid_png_and_svg) {
  for (const auto& stem : kFigures) {
    BOOST_TEST_CONTEXT(stem) {
      const PngCheck png = check_png(read_file(rendered().dir / (stem + ".png")));
      BOOST_TEST(png.chunks_ok);
      BOOST_TEST(png.width > 100u);
      BOOST_TEST(png.height > 100u);
      boost::property_tree::ptree svg;
      BOOST_CHECK_NO_THROW(boost::property_tree::read_xml((rendered().dir / (stem + ".svg")).string(), svg));
      BOOST_TEST(svg.count("svg") == 1u);
    }
  }
}

BOOST_AUTO_TEST_CASE(png_checker_rejects_a_corrupted_file) {
  std::string png = read_file(rendered().dir / "speedup.png");
  BOOST_TEST(check_png(png).chunks_ok);
  png[png.size() / 2] = static_cast<char>(png[png.size() / 2] ^ 0x5A);
  BOOST_TEST(!check_png(png).chunks_ok);
}

// The error and the allowance in bp of the notional (100 for the ELS; the call's size, 100), and where
// the allowance comes from: 16.2 bp off fails an allowance of 6.2 bp.
BOOST_AUTO_TEST_CASE(validation_table_holds_the_fixture_numbers) {
  const std::string& md = rendered().md;
  const std::string failed = row_with(md, "93.4123");  // adi:douglas on devbox, beyond its allowance
  BOOST_TEST(failed.find("| +0.162 | 16.2 | 6.2 | grid-scaled tolerance at n = 50 + 3 x reference std. error | FAIL |") !=
                 std::string::npos,
             failed);
  const std::string call = row_with(md, "10.4503");
  BOOST_TEST(call.find("10.4506 (closed-form) | -0.0003 | 0.03 | 0.2 | grid-scaled tolerance at n = 200 | PASS |") !=
                 std::string::npos,
             call);
  const std::string fp32 = row_with(md, "93.2502");
  BOOST_TEST(fp32.find("93.25 ± 0.004 (monte-carlo) | +0.0002 | 0.02 | 1.7 | grid-scaled tolerance at n = 400 + 3 x "
                       "reference std. error | PASS |") != std::string::npos,
             fp32);
  BOOST_TEST(md.find("skipped: unavailable: built without CUDA") != std::string::npos);
  BOOST_TEST(row_with(md, "| 91.0377 | - |").find("| not checked |") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(speedup_memory_and_machine_tables_hold_the_fixture_numbers) {
  const std::string& md = rendered().md;
  // T4 fp64 at 200x200: 884 ms for CPU adi t1 on the same machine over 36 ms.
  BOOST_TEST(row_with(md, "| 200x200, 400 steps | adi-cuda:hundsdorfer-verwer fp64, Tesla T4 (colab:t4) | 36 ms | "
                          "adi:hundsdorfer-verwer fp64, CPU t1 (colab:t4) | 884 ms | 24.6x |") != "");
  // 16 GiB / 80 bytes per point: 14,654 nodes per axis; 1,342 grids of 400x400 at once.
  BOOST_TEST(row_with(md, "adi-cuda:hundsdorfer-verwer fp64 (2-D) | 80 | 400x400 | 14,654 / 1,342") != "");
  BOOST_TEST(row_with(md, "| devbox (2-core AMD EPYC 7B13) | - | devbox | AMD EPYC 7B13 | 2 |") != "");
  BOOST_TEST(row_with(md, "| colab:t4 |").find("Tesla T4 (14.7 GiB, 40 SMs, cc 7.5") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cost_table_uses_measured_times_and_labels_the_rest_not_measured) {
  const std::string& md = rendered().md;
  // g4dn.xlarge has the T4 measured on Colab: $0.526/h x 0.095 s x 1000 / 3600 = $0.0139.
  const std::string g4dn = row_with(md, "| AWS | g4dn.xlarge | 1x T4 | $0.526 | 400x400, 800 steps |");
  BOOST_TEST(g4dn.find("| 95 ms | $0.0139 |") != std::string::npos, g4dn);
  BOOST_TEST(g4dn.find("same GPU (Tesla T4) measured on colab:t4") != std::string::npos);
  for (const char* unmeasured : {"| p3.2xlarge |", "| a2-highgpu-1g |", "| H100 PCIe 80GB |", "| notebook (P100) |"})
    BOOST_TEST(row_with(md, unmeasured).find("not measured") != std::string::npos, unmeasured);
  BOOST_TEST(row_with(md, "| - | devbox (2-core AMD EPYC 7B13) | - | no price | 200x200").find("no price") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(html_is_self_contained_and_holds_the_same_numbers) {
  const std::string& html = rendered().html;
  std::size_t embedded = 0;
  for (std::size_t at = html.find("data:image/svg+xml;base64,"); at != std::string::npos;
       at = html.find("data:image/svg+xml;base64,", at + 1))
    ++embedded;
  BOOST_TEST(embedded == kFigures.size());
  BOOST_TEST(html.find("src=\"http") == std::string::npos);
  BOOST_TEST(html.find(".png\"") == std::string::npos);
  for (const char* number : {"93.4123", "<td class=\"fail\">FAIL</td>", "$0.0139", "24.6x", "14,654 / 1,342"})
    BOOST_TEST(html.find(number) != std::string::npos, number);
  BOOST_TEST(html.find("<td class=\"muted\">not measured</td>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(baseline_option_changes_the_reference_configuration) {
  const fs::path out = rendered().dir.string() + "-t2";
  BOOST_TEST_REQUIRE(render(out, "--baseline adi/cpu/t2") == 0);
  const std::string md = read_file(out / "report.md");
  BOOST_TEST(md.find("## Speedup over adi/cpu/t2") != std::string::npos);
  // CPU t1 on devbox at 200x200 against t2: 410 ms / 765 ms.
  BOOST_TEST(row_with(md, "| adi:hundsdorfer-verwer fp64, CPU t1 (devbox (2-core AMD EPYC 7B13)) | 765 ms | "
                          "adi:hundsdorfer-verwer fp64, CPU t2 (devbox (2-core AMD EPYC 7B13)) | 410 ms | 0.536x |") != "");
  BOOST_TEST(render(out, "--baseline nonsense") != 0);
  fs::remove_all(out);
  fs::remove(out.string() + ".log");
}

BOOST_AUTO_TEST_CASE(history_of_a_folder_renders_and_a_report_needs_files_or_a_folder) {
  const fs::path out = rendered().dir.string() + "-history";
  const std::string log = shell_quoted(out.string() + ".log");
  const std::string report = shell_quoted(elsbench_binary()) + " report --out " + shell_quoted(out.string());
  BOOST_TEST_REQUIRE(run_command(report + " --history " + shell_quoted(project_root() + "/tests/data/results") + " > " +
                                 log + " 2>&1") == 0);
  const std::string md = read_file(out / "report.md");
  BOOST_TEST(md.find("## History across commits") != std::string::npos);
  BOOST_TEST(md.find("93.4123") != std::string::npos);  // the folder's files are the report's
  BOOST_TEST(run_command(report + " > " + log + " 2>&1") != 0);
  BOOST_TEST(read_file(out.string() + ".log").find("--history") != std::string::npos);
  fs::remove_all(out);
  fs::remove(out.string() + ".log");
}

}  // namespace elsbench
