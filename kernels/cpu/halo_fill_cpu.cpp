// Halo filling and boundary-box writes on the host (OpenMP).
#include <algorithm>

#include "stencil_cpu.hpp"
#include "thread_policy.hpp"

namespace fdsolve::cpu {

template <typename T>
void fill_halo(const HaloFillArgs<T>& args) {
  for (int axis = 0; axis < args.layout.dims; ++axis) {
    const HaloAxis h = fill_axis(args, axis);
    for (int side = 0; side < 2; ++side) {
      const GhostFace<T>& f = args.faces[2 * axis + side];
      if (f.rule == GhostRule::None) continue;
      // A face of a small grid is a few hundred copies: not worth waking the thread team.
#pragma omp parallel for schedule(static) num_threads(team_size((h.q_hi - h.q_lo) * (h.p_hi - h.p_lo)))
      for (index_t q = h.q_lo; q < h.q_hi; ++q)
        for (index_t p = h.p_lo; p < h.p_hi; ++p)
          if (h.fills(p, q)) fill_ghost(args.field, h, side, f.rule, f.offset, f.offsets, p, q);
    }
  }
}

template <typename T>
void write_box(T* field, const Layout& L, const Box& box, const T* values) {
  const index_t nx = box.extent(0), ny = box.extent(1);
#pragma omp parallel for collapse(2) schedule(static) num_threads(team_size(box.cells()))
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      std::copy_n(values + ((k - box.lo[2]) * ny + (j - box.lo[1])) * nx, nx,
                  field + L.at(box.lo[0], j, k));
}

template void fill_halo<float>(const HaloFillArgs<float>&);
template void fill_halo<double>(const HaloFillArgs<double>&);
template void write_box<float>(float*, const Layout&, const Box&, const float*);
template void write_box<double>(double*, const Layout&, const Box&, const double*);

}  // namespace fdsolve::cpu
