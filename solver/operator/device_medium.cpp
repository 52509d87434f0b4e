// See device_medium.hpp.
#include "device_medium.hpp"

#include <utility>
#include <vector>

#include "problem/field_programs.hpp"

namespace fdsolve::op {

std::shared_ptr<const Medium> medium_on_backend(const Case& c, Backend<double>& backend) {
  // Each field's array on the device, by the address of its host copy.
  std::vector<std::pair<const double*, Buffer<double>>> evaluated;
  NodeEvaluator on_device;
  on_device.values = [&](const Value& v) {
    Buffer<double> values;
    HostArray<double> host = node_values_on_backend(c, backend, v, &values);
    evaluated.emplace_back(host.data(), std::move(values));
    return host;
  };
  on_device.nonzero = [&](const Value& v) { return nonzero_on_backend(c, backend, v); };
  std::shared_ptr<const Medium> m = resolved_medium(c, on_device);
  // A host array freed during the resolution (a coefficient found constant) can give its
  // address to a later one: the later entry, kept last, is the array that lives there.
  for (auto& [host, values] : evaluated)
    if (host && (host == m->beta.data() || host == m->capacity.data()))
      backend.level_faces().keep(host, std::move(values));
  return m;
}

}  // namespace fdsolve::op
