// libFuzzer target on the case loader: any text (and --set overrides) must either give a Case
// or throw InputError, never crash, hang or throw anything else; and a Case that loads must
// survive the to_yaml round trip (case_reader.hpp's promise), which would catch quoting bugs.
//
// Input: the case text; lines after a line "#--set" are --set overrides, one per line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "case_reader.hpp"

namespace {

// Fails loudly (libFuzzer saves the input) when a property does not hold.
void require(bool ok, const char* what, const std::string& detail) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_case_loader: %s\n%s\n", what, detail.c_str());
  std::abort();
}

void split(const std::string& input, std::string& text, std::vector<std::string>& overrides) {
  const std::string marker = "\n#--set\n";
  const auto at = input.find(marker);
  text = input.substr(0, at);
  if (at == std::string::npos) return;
  std::size_t begin = at + marker.size();
  while (begin <= input.size()) {
    auto end = input.find('\n', begin);
    if (end == std::string::npos) end = input.size();
    if (end > begin) overrides.push_back(input.substr(begin, end - begin));
    begin = end + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text;
  std::vector<std::string> overrides;
  split(std::string(reinterpret_cast<const char*>(data), size), text, overrides);
  fdsolve::Case c;
  try {
    // A label in a directory that does not exist: relative data-file paths find nothing.
    c = fdsolve::parse_case(text, "fuzz-no-such-dir/case.yaml", overrides);
  } catch (const fdsolve::InputError& e) {
    const std::string message = e.what();
    require(!message.empty() && message.find('\n') == std::string::npos,
            "an input error must be one line", message);
    return 0;
  }
  const std::string yaml = fdsolve::to_yaml(c);
  fdsolve::Case again;
  try {
    again = fdsolve::parse_case(yaml, "fuzz-no-such-dir/written.yaml");
  } catch (const fdsolve::InputError& e) {
    require(false, "to_yaml wrote a case that does not load again", yaml + "\n" + e.what());
  }
  require(fdsolve::to_yaml(again) == yaml, "to_yaml is not stable on a second pass", yaml);
  return 0;
}
