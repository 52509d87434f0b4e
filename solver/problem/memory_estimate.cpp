// How much backend and host memory a case needs, checked before anything is allocated.
#include "memory_estimate.hpp"

#include <algorithm>

#include "halo_fill.hpp"
#include "problem_setup.hpp"
#include "robin_faces.hpp"
#include "snapshot_parallel.hpp"

namespace fdsolve {

std::size_t required_memory(const Case& c) { return required_memory(c, Subdomain::whole(c)); }

std::size_t required_memory(const Case& c, const Subdomain& sub) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const Layout L = field_layout(c, value, sub);
  std::size_t fields = has_source_field(c) ? 3 : 2;
  // Each held value that uses t keeps its values and its mask on the backend (op::HeldValues).
  for (const FixedRegion& region : c.problem.fixed) fields += region.value.uses_time ? 2 : 0;
  // Robin faces: the operator's diagonal term (op::FluxLevel::diagonal).
  if (has_robin_faces(c)) fields += 1;
  // A heat capacity that varies: the explicit step's 1 / c per node (FluxOperator::step_scale).
  if (c.problem.equation == Equation::Heat && !c.problem.capacity.is_constant()) ++fields;
  std::size_t faces = 0;
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type == BoundaryType::Neumann && !bc.gradient.is_constant())
      faces += static_cast<std::size_t>(halo_axis(L, face / 2).face_size());
  }
  return (fields * static_cast<std::size_t>(L.size) + faces) * value;
}

std::size_t output_slab_bytes(const Case& c, const Subdomain& sub) {
  // FieldWriter::final_snapshot: the slab packed on the backend and its staging copy (backend
  // memory on the CPU), and for the update field a second staging copy; at most 32 MiB each
  // (a layer at least), held while everything else still is.
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const Layout L = field_layout(c, value, sub);
  const std::size_t dense = static_cast<std::size_t>(L.owned_cells()) * value;
  const index_t slow_nodes = std::max<index_t>(L.n[c.grid.dims - 1], 1);
  const std::size_t layer = dense / static_cast<std::size_t>(slow_nodes);
  const std::size_t slab = std::min(dense, std::max<std::size_t>(std::size_t{32} << 20, layer));
  const bool update =
      std::find(c.output.fields.begin(), c.output.fields.end(), "update") != c.output.fields.end();
  return (update ? 3 : 2) * slab;
}

std::size_t required_host_memory(const Case& c) {
  return required_host_memory(c, Subdomain::whole(c), true);
}

std::size_t required_host_memory(const Case& c, const Subdomain& sub, bool root) {
  // The initial field and the source are built in full on the host, then a staging buffer and
  // the dense copies of a snapshot's fields are held while it is written; without parallel
  // HDF5 rank 0 also holds the gathered whole fields (and the gather's receive buffer).
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const Layout L = field_layout(c, value, sub);
  const std::size_t dense = static_cast<std::size_t>(L.owned_cells()) * value;
  std::size_t whole = 0;
  if (root && !sub.is_whole() && !output::parallel_hdf5())
    whole = 4 * static_cast<std::size_t>(field_layout(c, value).owned_cells()) * value;
  // output.fields flux: computed on the host from the whole grid's u (rank 0 gathers it over
  // ranks): u widened to double, the flux in double and in the run's precision; every rank
  // then holds its own part.
  std::size_t flux = 0;
  if (std::find(c.output.fields.begin(), c.output.fields.end(), "flux") != c.output.fields.end()) {
    const auto dims = static_cast<std::size_t>(c.grid.dims);
    const auto nodes = static_cast<std::size_t>(field_layout(c, value).owned_cells());
    flux = dims * static_cast<std::size_t>(L.owned_cells()) * value;
    if (root) flux += nodes * (value + sizeof(double) * (1 + dims) + value * dims);
  }
  return 2 * static_cast<std::size_t>(L.size) * value + 3 * dense + whole + flux;
}

}  // namespace fdsolve
