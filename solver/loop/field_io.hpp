// Moving fields from the backend to files during a run: snapshots with the fields the case
// asks for, and checkpoints, which are never written from a state with non-finite values.
// Over several ranks every rank calls these at the same iterations: with parallel HDF5 each
// rank writes its own nodes into the one file, collectively; with serial HDF5 every rank's
// nodes are gathered to rank 0, which writes (the slow path).
#pragma once

#include <spdlog/spdlog.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "backend.hpp"
#include "checkpoint.hpp"
#include "run_clock.hpp"
#include "operator/medium_fields.hpp"
#include "parallel/agree.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/field_gather.hpp"
#include "problem/problem_setup.hpp"
#include "run_output.hpp"

namespace fdsolve {

template <typename T>
class FieldWriter {
 public:
  FieldWriter(const Case& c, Backend<T>& backend, const Layout& L, output::RunOutput& out)
      : FieldWriter(c, backend, L, out, parallel::Comm{}, parallel::decompose(c, {1, 1, 1}, 0)) {}
  /// Rank `d.rank` of a run over `comm`: `L` is the layout of its nodes.
  FieldWriter(const Case& c, Backend<T>& backend, const Layout& L, output::RunOutput& out,
              const parallel::Comm& comm, const parallel::Decomposition& d)
      : c_(c),
        backend_(backend),
        L_(L),
        out_(out),
        comm_(comm),
        d_(d),
        collective_(comm.several() && output::parallel_hdf5()),
        mine_(hyperslab_of(d.sub)),
        host_(static_cast<std::size_t>(L.size)) {
    bool medium_fields = false;
    for (const auto& name : c.output.fields) {
      if (name == "source")
        source_ = gather(owned_dense(source_values<T>(c, L, d.sub, 1.0, 0.0), L));
      medium_fields = medium_fields || name == "coefficient" || name == "fixed";
    }
    if (medium_fields) {  // fields that never change: evaluated once, written with each snapshot
      const op::Medium m = op::resolve_medium(c);
      coefficient_ = gather(op::coefficient_field<T>(m, d.sub));
      fixed_ = gather(op::fixed_field<T>(m, d.sub));
    }
  }

  /// Downloads `cur` (and `prev` for the update field) and writes snapshot `iteration`, with
  /// further text datasets `texts`.
  void snapshot(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration, double time,
                const std::map<std::string, std::string>& texts = {}) {
    const OutputTimer timer;
    const std::vector<T>& u = download_dense(cur, dense_u_);
    std::vector<output::FieldRef<T>> fields;
    for (const auto& name : c_.output.fields) {
      if (name == "u") {
        fields.push_back({"u", u.data()});
      } else if (name == "update") {
        std::vector<T>& update = download_dense(prev, dense_update_);
        for (std::size_t i = 0; i < update.size(); ++i) update[i] = u[i] - update[i];
        fields.push_back({"update", update.data()});  // gathered: empty but for rank 0
      } else if (name == "source") {
        fields.push_back({"source", source_.data()});
      } else if (name == "coefficient") {
        fields.push_back({"coefficient", coefficient_.data()});
      } else if (name == "fixed") {
        fields.push_back({"fixed", fixed_.data()});
      }
    }
    if (!collective_) {
      out_.snapshot<T>(iteration, time, fields, texts);
      return;
    }
    // A failure on any rank (the file cannot be created) ends every rank with one message.
    parallel::agree(comm_, [&] { out_.snapshot_fields<T>(iteration, fields, mine_); });
    std::vector<std::string> names;
    for (const auto& f : fields) names.push_back(f.name);
    parallel::agree(comm_, [&] { out_.snapshot_finish<T>(iteration, time, names, texts); });
  }

  /// Writes the checkpoint of `cur` unless it holds a non-finite value, in which case the
  /// previous checkpoint stays and false is returned.
  bool checkpoint(const Buffer<T>& cur, const LoopState& state) {
    const OutputTimer timer;
    // The moment the loop hands over (tools/interrupt_latency.py times a signal's stop by it).
    spdlog::debug("checkpoint at iteration {}: copying the field", state.iteration);
    backend_.download(host_.data(), cur, L_.size);
    std::vector<T>& u = dense_u_;
    copy_owned(host_, L_, u);
    bool finite = true;
    for (const T v : u) finite = finite && std::isfinite(v);
    // Every rank must skip alike: the gather below is collective.
    if (comm_.max(finite ? 0 : 1) != 0) {
      spdlog::warn(
          "checkpoint at iteration {} skipped: the field holds non-finite values; {} "
          "keeps the last good state",
          state.iteration, checkpoint_path(c_));
      return false;
    }
    if (collective_) {
      parallel::agree(comm_, [&] { write_checkpoint_fields(c_, u, mine_); });
      parallel::agree(comm_, [&] {
        if (comm_.root()) finish_checkpoint(c_, state, out_);
      });
      return true;
    }
    if (comm_.several()) u = parallel::gather_field(comm_, d_, u);
    if (comm_.root()) write_checkpoint(c_, state, u, out_);
    return true;
  }

 private:
  /// The dense field this rank writes: its own nodes (collective), or the whole grid's on
  /// rank 0 (empty on the others).
  /// Into `dense`, a buffer kept from snapshot to snapshot: a fresh 67 MB vector costs its
  /// pages' first touch on every snapshot, as much as writing it.
  std::vector<T>& download_dense(const Buffer<T>& field, std::vector<T>& dense) {
    backend_.download(host_.data(), field, L_.size);
    copy_owned(host_, L_, dense);
    if (!collective_ && comm_.several()) dense = parallel::gather_field(comm_, d_, dense);
    return dense;
  }
  std::vector<T> gather(const std::vector<T>& mine) {
    return collective_ ? mine : parallel::gather_field(comm_, d_, mine);
  }

  const Case& c_;
  Backend<T>& backend_;
  const Layout& L_;
  output::RunOutput& out_;
  parallel::Comm comm_;
  parallel::Decomposition d_;
  bool collective_ = false;
  output::Hyperslab mine_;  // this rank's nodes in the global grid
  std::vector<T> host_;    // staging buffer for downloads, allocated once
  std::vector<T> dense_u_, dense_update_;  // the owned nodes, dense, reused likewise
  std::vector<T> source_;       // dense source, when the case writes it
  std::vector<T> coefficient_;  // dense coefficient and held-node mask, likewise
  std::vector<T> fixed_;
};

}  // namespace fdsolve
