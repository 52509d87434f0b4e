// FieldWriter's larger members (see field_io.hpp): the snapshot's paths (one rank, serial
// HDF5 over ranks, collective, and the streamed final snapshot), the checkpoint, and the fields
// written beside u.
#include "field_io.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <type_traits>
#include <utility>

#include "loop_support.hpp"
#include "operator/medium_fields.hpp"
#include "output_queue.hpp"
#include "parallel/agree.hpp"
#include "parallel/field_gather.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve {

template <typename T>
template <typename Dense>
Dense FieldWriter<T>::gather(Dense mine) {
  if (collective_ || !comm_.several()) return mine;
  using Value = typename Dense::value_type;
  if constexpr (std::is_same_v<Dense, std::vector<Value>>) {
    return parallel::gather_field(comm_, d_, mine);
  } else {
    const std::vector<Value> whole =
        parallel::gather_field(comm_, d_, std::vector<Value>(mine.begin(), mine.end()));
    return Dense(whole.begin(), whole.end());
  }
}

template <typename T>
FieldWriter<T>::FieldWriter(const Case& c, Backend<T>& backend, const Layout& L,
                            output::RunOutput& out, const parallel::Comm& comm,
                            const parallel::Decomposition& d)
    : c_(c),
      backend_(backend),
      L_(L),
      out_(out),
      comm_(comm),
      d_(d),
      collective_(comm.several() && output::parallel_hdf5()),
      mine_(hyperslab_of(d.sub)),
      copy_on_all_threads_(!backend.host_memory()),
      staging_(backend, L.size),
      queue_(output_queue_capacity(c, state_bytes(c, L), collective_)) {
  // The medium's fields never change: formed once (those asked for, unless the output writes
  // them ahead: write_medium_fields_ahead), written with each snapshot.
  for (const auto& name : c.output.fields) {
    if (out.writes_ahead(name)) continue;
    if (name == "source") source_ = gather(owned_dense(source_values<T>(c, L, d.sub, 1.0, 0.0), L));
    if (name == "coefficient")
      coefficient_ = gather(op::coefficient_field<T>(*op::resolved_medium(c), d.sub));
    if (name == "fixed") fixed_ = gather(op::fixed_mask(*op::resolved_medium(c), d.sub));
    if (name == "capacity")
      capacity_ = gather(op::capacity_field<T>(*op::resolved_medium(c), d.sub));
    if (name == "flux") flux_medium_ = op::resolved_medium(c);
  }
}

template <typename T>
void FieldWriter<T>::snapshot(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration,
                              double time, const std::map<std::string, std::string>& texts,
                              bool last) {
  const OutputTimer handing_over(OutputTimer::Counts::waited);
  if (collective_) return snapshot_collective(cur, prev, iteration, time, texts);
  if (comm_.several()) {
    // Serial HDF5 over ranks: the gather is collective, so it happens here; rank 0's writer
    // then writes the whole grid, the others only keep their index in step.
    // Moved out, not copied: on rank 0 the whole grid (the next snapshot gathers anew).
    auto u = std::make_shared<std::vector<T>>(std::move(download_dense(cur, gathered_u_)));
    std::shared_ptr<std::vector<T>> update;
    if (wants_update()) {
      update =
          std::make_shared<std::vector<T>>(std::move(download_dense(prev, gathered_update_)));
      for (std::size_t i = 0; i < update->size(); ++i) (*update)[i] = (*u)[i] - (*update)[i];
    }
    hand_over([this, u, update, iteration, time, texts, last] {
      // Rank 0 holds the whole grid's u; the other ranks write nothing.
      if (wants_flux() && !u->empty()) dense_flux_ = whole_flux(*u, time);
      write_snapshot(*u, update.get(), iteration, time, texts, last);
    });
    return;
  }
  // One rank: only the download happens on the loop's thread.
  const auto t0 = std::chrono::steady_clock::now();
  std::shared_ptr<Buffer<T>> u = staging_.take();
  const double take_s = seconds_since(t0);
  backend_.download(u->data(), cur, L_.size);
  std::shared_ptr<Buffer<T>> before;
  if (wants_update()) {
    before = staging_.take();
    backend_.download(before->data(), prev, L_.size);
  }
  spdlog::debug("snapshot {}: staged in {:.1f} ms ({:.1f} ms for the buffer)", iteration,
                1e3 * seconds_since(t0), 1e3 * take_s);
  hand_over([this, u, before, iteration, time, texts, last] {
    const auto t1 = std::chrono::steady_clock::now();
    copy_owned(u->data(), L_, dense_u_, copy_on_all_threads_);
    std::vector<T>* update = nullptr;
    if (before) {
      copy_owned(before->data(), L_, dense_update_, copy_on_all_threads_);
      for (std::size_t i = 0; i < dense_update_.size(); ++i)
        dense_update_[i] = dense_u_[i] - dense_update_[i];
      update = &dense_update_;
    }
    if (wants_flux()) dense_flux_ = whole_flux(dense_u_, time);
    const double copy_s = seconds_since(t1);
    write_snapshot(dense_u_, update, iteration, time, texts, last);
    spdlog::debug("snapshot {}: ghost layers removed in {:.1f} ms, written in {:.1f} ms", iteration,
                  1e3 * copy_s, 1e3 * (seconds_since(t1) - copy_s));
  });
}

template <typename T>
void FieldWriter<T>::final_snapshot(const Buffer<T>& cur, const Buffer<T>& prev,
                                    std::int64_t iteration, double time,
                                    const std::map<std::string, std::string>& texts) {
  // The flux field needs the whole u on the host: the snapshot's own path.
  if (collective_ || comm_.several() || c_.output.gzip_level > 0 || wants_flux())
    return snapshot(cur, prev, iteration, time, texts, true);
  finish();
  const OutputTimer writing;
  const int slow = c_.grid.dims - 1;
  const index_t layer = L_.owned_cells() / std::max<index_t>(L_.n[slow], 1);
  constexpr index_t kSlabBytes = index_t{32} << 20;
  const index_t slab =
      std::clamp<index_t>(kSlabBytes / (layer * index_t{sizeof(T)}), 1, L_.n[slow]);
  Buffer<T> on_backend = backend_.allocate(slab * layer);
  Buffer<T> host = backend_.transfers().allocate_staging(slab * layer);
  Buffer<T> host_before;
  // Layers [first, first + count) of `field`, dense, into `into`.
  const auto read = [&](const Buffer<T>& field, std::int64_t first, std::int64_t count,
                        Buffer<T>& into) {
    Box box = L_.owned_box();
    box.lo[slow] = first;
    box.hi[slow] = first + count;
    backend_.pack_box(field, L_, box, on_backend);
    backend_.download(into.data(), on_backend, box.cells());
  };
  std::vector<output::FieldRef<T>> refs = fields(nullptr, nullptr);
  for (auto& ref : refs) {
    ref.slab = static_cast<std::int64_t>(slab);
    if (ref.name == "u") {
      ref.read = [&](std::int64_t first, std::int64_t count) -> const T* {
        read(cur, first, count, host);
        return host.data();
      };
    } else if (ref.name == "update") {
      host_before = backend_.transfers().allocate_staging(slab * layer);
      ref.read = [&](std::int64_t first, std::int64_t count) -> const T* {
        read(cur, first, count, host);
        read(prev, first, count, host_before);
        T* d = host_before.data();
        const std::size_t n = static_cast<std::size_t>(count * layer);
        for (std::size_t i = 0; i < n; ++i) d[i] = host.data()[i] - d[i];
        return d;
      };
    }
  }
  out_.snapshot<T>(iteration, time, refs, texts);
}

template <typename T>
bool FieldWriter<T>::checkpoint(const Buffer<T>& cur, const LoopState& state,
                                const std::vector<const Buffer<T>*>& previous) {
  const OutputTimer handing_over(OutputTimer::Counts::waited);
  // The moment the loop hands over (tools/interrupt_latency.py times a signal's stop by it).
  spdlog::debug("checkpoint at iteration {}: copying the field", state.iteration);
  const auto owned = [&](const Buffer<T>& field) {
    auto dense = std::make_shared<std::vector<T>>();
    const std::shared_ptr<Buffer<T>> staged = staging_.take();
    backend_.download(staged->data(), field, L_.size);
    copy_owned(staged->data(), L_, *dense, true);
    return dense;
  };
  std::vector<std::shared_ptr<std::vector<T>>> fields{owned(cur)};
  for (const Buffer<T>* p : previous) fields.push_back(owned(*p));
  const std::shared_ptr<std::vector<T>> u = fields[0];
  bool finite = true;
  for (const auto& field : fields)
    for (const T v : *field) finite = finite && std::isfinite(v);
  // The earlier fields as the checkpoint writer takes them (they live in `fields`).
  const auto earlier = [](const std::vector<std::shared_ptr<std::vector<T>>>& all) {
    std::vector<const std::vector<T>*> list;
    for (std::size_t i = 1; i < all.size(); ++i) list.push_back(all[i].get());
    return list;
  };
  // Every rank must skip alike: the gather below is collective.
  if (comm_.max(finite ? 0 : 1) != 0) {
    spdlog::warn(
        "checkpoint at iteration {} skipped: the field holds non-finite values; {} "
        "keeps the last good state",
        state.iteration, checkpoint_path(c_));
    return false;
  }
  checkpointed_ = state.iteration;
  if (collective_) {
    const OutputTimer writing(OutputTimer::Counts::written);
    parallel::agree(comm_, [&] { write_checkpoint_fields(c_, *u, mine_, earlier(fields)); });
    parallel::agree(comm_, [&] {
      if (comm_.root()) finish_checkpoint(c_, state, out_);
    });
    return true;
  }
  if (comm_.several())
    for (const auto& field : fields) *field = parallel::gather_field(comm_, d_, *field);
  if (!comm_.root()) return true;
  // The history as of now; the index is read when the writer gets there, after every
  // snapshot handed over before this checkpoint (and none after it) is in place.
  hand_over([this, fields, earlier, state, history = out_.history(), probes = out_.probes()] {
    const OutputTimer writing(OutputTimer::Counts::written);
    write_checkpoint(c_, state, *fields[0], out_.index(), history, probes, earlier(fields));
  });
  return true;
}

template <typename T>
std::vector<T> FieldWriter<T>::my_flux(const std::vector<T>& mine, double time) {
  const std::vector<T> whole_u = parallel::gather_field(comm_, d_, mine);
  const int components = op::flux_components(c_);
  std::vector<T> whole;
  if (comm_.root()) whole = whole_flux(whole_u, time);
  const std::size_t nodes = mine.size();
  std::vector<T> out(nodes * static_cast<std::size_t>(components));
  std::vector<T> part(nodes);
  for (int a = 0; a < components; ++a) {
    std::vector<T> blocks;
    std::vector<std::size_t> bytes;
    if (comm_.root()) {
      std::vector<T> component(whole.size() / static_cast<std::size_t>(components));
      for (std::size_t i = 0; i < component.size(); ++i)
        component[i] = whole[i * static_cast<std::size_t>(components) + a];
      blocks = parallel::split_field(d_, component, bytes);
    }
    comm_.scatter_from_root(blocks.data(), bytes, part.data(), nodes * sizeof(T));
    for (std::size_t i = 0; i < nodes; ++i)
      out[i * static_cast<std::size_t>(components) + a] = part[i];
  }
  return out;
}

template <typename T>
void FieldWriter<T>::write_snapshot(const std::vector<T>& u, const std::vector<T>* update,
                                    std::int64_t iteration, double time,
                                    const std::map<std::string, std::string>& texts,
                                    bool last) {
  const OutputTimer writing(OutputTimer::Counts::written);
  out_.snapshot<T>(iteration, time, fields(u.data(), update ? update->data() : nullptr), texts);
  if (!last) out_.begin_next_snapshot();
}

template <typename T>
std::vector<output::FieldRef<T>> FieldWriter<T>::fields(const T* u, const T* update) const {
  std::vector<output::FieldRef<T>> refs;
  for (const auto& name : c_.output.fields) {
    if (name == "u") refs.push_back({"u", u});
    if (name == "update") refs.push_back({"update", update});
    if (name == "source") refs.push_back({"source", source_.data()});
    if (out_.writes_ahead(name)) continue;
    if (name == "coefficient") refs.push_back({"coefficient", coefficient_.data()});
    if (name == "fixed") refs.push_back(output::FieldRef<T>::of_mask("fixed", fixed_.data()));
    if (name == "flux")
      refs.push_back({"flux", collective_ ? collective_flux_.data() : dense_flux_.data()});
    if (name == "capacity") refs.push_back({"capacity", capacity_.data()});
  }
  return refs;
}

template <typename T>
void FieldWriter<T>::snapshot_collective(const Buffer<T>& cur, const Buffer<T>& prev,
                                         std::int64_t iteration, double time,
                                         const std::map<std::string, std::string>& texts) {
  const OutputTimer writing(OutputTimer::Counts::written);
  const std::vector<T>& u = download_dense(cur, gathered_u_);
  const T* update = nullptr;
  if (wants_update()) {
    std::vector<T>& before = download_dense(prev, gathered_update_);
    for (std::size_t i = 0; i < before.size(); ++i) before[i] = u[i] - before[i];
    update = before.data();
  }
  if (wants_flux()) collective_flux_ = my_flux(u, time);
  const auto refs = fields(u.data(), update);
  // A failure on any rank (the file cannot be created) ends every rank with one message.
  parallel::agree(comm_, [&] { out_.snapshot_fields<T>(iteration, refs, mine_); });
  std::vector<std::string> names;
  for (const auto& f : refs) names.push_back(f.name);
  parallel::agree(comm_, [&] { out_.snapshot_finish<T>(iteration, time, names, texts); });
}

template <typename T>
std::vector<T>& FieldWriter<T>::download_dense(const Buffer<T>& field, std::vector<T>& dense) {
  const std::shared_ptr<Buffer<T>> staged = staging_.take();
  backend_.download(staged->data(), field, L_.size);
  copy_owned(staged->data(), L_, dense, true);
  if (!collective_ && comm_.several()) dense = parallel::gather_field(comm_, d_, dense);
  return dense;
}

template class FieldWriter<float>;
template class FieldWriter<double>;

}  // namespace fdsolve
