// See gathered_preconditioner.hpp.
#include "gathered_preconditioner.hpp"

#include "parallel/field_gather.hpp"

namespace fdsolve::multigrid {

template <typename T>
GatheredPreconditioner<T>::GatheredPreconditioner(Backend<T>& backend, const parallel::Comm& comm,
                                                  const parallel::Decomposition& d,
                                                  const Layout& part, const Layout& whole,
                                                  FluxPreconditioner<T>* cycles)
    : backend_(backend), comm_(comm), d_(d), part_(part), whole_(whole), cycles_(cycles) {
  packed_ = backend.allocate(part.owned_box().cells());
  if (!comm.root()) return;
  // z's nodes that the cycle never writes (Dirichlet and held) stay zero, as on one rank.
  for (auto* b : {&whole_r_, &whole_z_}) {
    *b = backend.allocate(whole.size);
    backend.zero(*b);
  }
  whole_packed_ = backend.allocate(whole.owned_box().cells());
}

template <typename T>
void GatheredPreconditioner<T>::precondition(const Buffer<T>& r, Buffer<T>& z) {
  const Box owned = part_.owned_box();
  backend_.pack_box(r, part_, owned, packed_);
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  backend_.download(mine_.data(), packed_, owned.cells());
  all_ = parallel::gather_field(comm_, d_, mine_);
  std::vector<T> blocks;
  std::vector<std::size_t> bytes;
  if (comm_.root()) {
    const Box whole = whole_.owned_box();
    backend_.write_box(whole_r_, whole_, whole, all_.data());
    cycles_->precondition(whole_r_, whole_z_);
    backend_.pack_box(whole_z_, whole_, whole, whole_packed_);
    backend_.download(all_.data(), whole_packed_, whole.cells());
    blocks = parallel::split_field(d_, all_, bytes);
  }
  comm_.scatter_from_root(blocks.data(), bytes, mine_.data(), mine_.size() * sizeof(T));
  backend_.write_box(z, part_, owned, mine_.data());
}

template class GatheredPreconditioner<float>;
template class GatheredPreconditioner<double>;

}  // namespace fdsolve::multigrid
