// Packing boxes of a field for the halo exchange, on the host. Faces are small (one node
// thick): a plain loop, no thread team.
#include "../halo_pack.hpp"
#include "stencil_cpu.hpp"

namespace fdsolve::cpu {

template <typename T>
void pack_box(const T* field, const Layout& L, const Box& box, T* packed) {
  const PackGeometry g = pack_geometry(L, box);
  for (index_t n = 0; n < g.count(); ++n) packed[n] = field[g.element(n)];
}

template <typename T>
void unpack_box(T* field, const Layout& L, const Box& box, const T* packed) {
  const PackGeometry g = pack_geometry(L, box);
  for (index_t n = 0; n < g.count(); ++n) field[g.element(n)] = packed[n];
}

template void pack_box<float>(const float*, const Layout&, const Box&, float*);
template void pack_box<double>(const double*, const Layout&, const Box&, double*);
template void unpack_box<float>(float*, const Layout&, const Box&, const float*);
template void unpack_box<double>(double*, const Layout&, const Box&, const double*);

}  // namespace fdsolve::cpu
