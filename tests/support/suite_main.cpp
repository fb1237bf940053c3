// The main() of every unit, validation and slow suite. The suite is named after its executable
// (test_unit_book: book), so its source needs no BOOST_TEST_MODULE and every suite compiles with
// the same flags, which lets them share one precompiled header (tests/CMakeLists.txt).
#include <boost/test/unit_test.hpp>

#include <string>

namespace {

std::string suite_name(const char* executable) {
  std::string name = executable;
  name = name.substr(name.find_last_of('/') + 1);
  for (int part = 0; part < 2; ++part) name = name.substr(name.find('_') + 1);  // test_<label>_
  return name;
}

bool init_suite() {
  auto& master = boost::unit_test::framework::master_test_suite();
  if (master.argc > 0) master.p_name.value = suite_name(master.argv[0]);
  return true;
}

}  // namespace

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&init_suite, argc, argv); }
