// See medium_output.hpp.
#include "medium_output.hpp"

#include <cstdint>
#include <memory>
#include <type_traits>

#include "operator/medium_fields.hpp"

namespace fdsolve {
namespace {

/// What the fields' values live in while the output writes them.
template <typename T>
struct MediumOutput {
  std::shared_ptr<const op::Medium> medium;
  op::HostArray<T> coefficient, capacity;
  op::HostArray<std::uint8_t> fixed;
};

}  // namespace

template <typename T>
void write_medium_fields_ahead(const Case& c, output::RunOutput& out) {
  auto kept = std::make_shared<MediumOutput<T>>();
  const Subdomain whole = Subdomain::whole(c);
  std::vector<output::FieldRef<T>> refs;
  for (const auto& name : c.output.fields) {
    if (name != "coefficient" && name != "fixed" && name != "capacity") continue;
    if (!kept->medium) kept->medium = op::resolved_medium(c);
    const op::Medium& m = *kept->medium;
    if (name == "coefficient") {
      // The medium's own node values where they are the field as written: no second copy of
      // a grid-sized array.
      const T* values = nullptr;
      if constexpr (std::is_same_v<T, double>)
        if (m.varies()) values = m.beta.data();
      if (!values) {
        kept->coefficient = op::coefficient_field<T>(m, whole);
        values = kept->coefficient.data();
      }
      refs.push_back({"coefficient", values});
    } else if (name == "fixed") {
      kept->fixed = op::fixed_mask(m, whole);
      refs.push_back(output::FieldRef<T>::of_mask("fixed", kept->fixed.data()));
    } else {
      kept->capacity = op::capacity_field<T>(m, whole);
      refs.push_back({"capacity", kept->capacity.data()});
    }
  }
  if (!refs.empty()) out.write_ahead<T>(std::move(refs), kept, c.output.fields);
}

template void write_medium_fields_ahead<float>(const Case&, output::RunOutput&);
template void write_medium_fields_ahead<double>(const Case&, output::RunOutput&);

}  // namespace fdsolve
