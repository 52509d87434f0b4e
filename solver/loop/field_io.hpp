// Moving fields from the backend to files during a run: snapshots with the fields the case
// asks for, and checkpoints, which are never written from a state with non-finite values.
// The loop hands a field over and goes on: it is downloaded into a page-locked staging buffer
// and a background writer (output/write_queue.hpp) removes the ghost layers and writes the
// file, in the order the loop handed them over, so that a checkpoint's snapshot index lists
// exactly the snapshots written before it. Over several ranks every rank calls these at the
// same iterations: with parallel HDF5 each rank writes its own nodes into the one file,
// collectively, on the loop's thread; with serial HDF5 every rank's nodes are gathered to
// rank 0 on the loop's thread, and rank 0's writer writes them. The larger members are defined
// in field_io.cpp, for float and double.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "checkpoint.hpp"
#include "operator/flux_field.hpp"
#include "operator/host_array.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "run_clock.hpp"
#include "run_output.hpp"
#include "staging_pool.hpp"
#include "write_queue.hpp"

namespace fdsolve {

template <typename T>
class FieldWriter {
 public:
  FieldWriter(const Case& c, Backend<T>& backend, const Layout& L, output::RunOutput& out)
      : FieldWriter(c, backend, L, out, parallel::Comm{}, parallel::decompose(c, {1, 1, 1}, 0)) {}
  /// Rank `d.rank` of a run over `comm`: `L` is the layout of its nodes.
  FieldWriter(const Case& c, Backend<T>& backend, const Layout& L, output::RunOutput& out,
              const parallel::Comm& comm, const parallel::Decomposition& d);

  /// Hands snapshot `iteration` of `cur` (and `prev` for the update field) to the writer, with
  /// further text datasets `texts`. Unless it is the `last` the run writes, the next snapshot's
  /// file is begun ahead after it (RunOutput::write_ahead).
  void snapshot(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration, double time,
                const std::map<std::string, std::string>& texts = {}, bool last = false);

  /// The run's last snapshot, after the loop. Everything queued is written first (the .xmf
  /// lists snapshots in order), then this one on the loop's thread, which has nothing else to
  /// do: on one rank without compression it is streamed from the backend in slabs of a few
  /// MB, ghost layers left on the device, so that no host copy of the whole field is made (a
  /// fresh page-locked 537 MB buffer costs 0.23 s to allocate, its first touch as much again).
  void final_snapshot(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration,
                      double time, const std::map<std::string, std::string>& texts = {});

  /// Hands the checkpoint of `cur` (and `previous`, u one to three steps earlier, where the
  /// loop needs them to resume) to the writer unless it holds a non-finite value, in which
  /// case the previous checkpoint stays and false is returned.
  bool checkpoint(const Buffer<T>& cur, const LoopState& state,
                  const std::vector<const Buffer<T>*>& previous = {});

  /// The iteration of the last checkpoint handed over (-1: none yet), so that a loop ending
  /// where one was just taken does not write the same state twice.
  std::int64_t last_checkpoint() const { return checkpointed_; }

  /// Rewrites history.csv with the rows so far (after the snapshots handed over before).
  void flush_history() {
    const OutputTimer handing_over(OutputTimer::Counts::waited);
    if (collective_ || !comm_.root()) return out_.flush_history();
    hand_over([this, rows = out_.history()] { out_.write_history(rows); });
  }

  /// Rewrites probes.csv with the rows so far (after the snapshots handed over before).
  void flush_probes() {
    if (!out_.has_probes()) return;
    const OutputTimer handing_over(OutputTimer::Counts::waited);
    if (collective_ || !comm_.root()) return out_.write_probes(out_.probes());
    hand_over([this, table = out_.probes()] { out_.write_probes(table); });
  }

  /// Waits until everything handed over is written; throws the first write error.
  void finish() {
    const OutputTimer waiting(OutputTimer::Counts::waited);
    queue_.drain();
  }

 private:
  static bool writes_update(const Case& c) {
    return std::find(c.output.fields.begin(), c.output.fields.end(), "update") !=
           c.output.fields.end();
  }
  bool wants_update() const { return writes_update(c_); }
  bool wants_flux() const { return flux_medium_ != nullptr; }
  /// -beta grad u of the whole grid's dense u (op::flux_field), [node][component].
  std::vector<T> whole_flux(const std::vector<T>& u, double time) const {
    return op::flux_field_as<T>(c_, *flux_medium_, u, time);
  }
  /// Parallel HDF5: this rank's part of the flux field. A node's flux reads its neighbours, so
  /// rank 0 gathers u, computes the whole grid's and sends every rank its nodes (one component
  /// at a time, split as the gathers split); the written field is then one rank's.
  std::vector<T> my_flux(const std::vector<T>& mine, double time);
  /// Page-locked bytes one pending snapshot holds: u, and the previous field for `update`.
  static std::uint64_t state_bytes(const Case& c, const Layout& L) {
    return static_cast<std::uint64_t>(L.size) * sizeof(T) * (writes_update(c) ? 2 : 1);
  }

  /// Queues `write` (made at once when the queue is synchronous; every rank but the writing
  /// one only keeps its index in step, which costs nothing).
  void hand_over(std::function<void()> write) {
    if (!comm_.root()) return write();
    queue_.push(std::move(write));
  }

  /// On the writer's thread: the snapshot from dense fields (`update` null when not asked for).
  void write_snapshot(const std::vector<T>& u, const std::vector<T>* update,
                      std::int64_t iteration, double time,
                      const std::map<std::string, std::string>& texts, bool last);

  std::vector<output::FieldRef<T>> fields(const T* u, const T* update) const;

  /// Parallel HDF5: every rank writes its own nodes into the one file, on the loop's thread.
  void snapshot_collective(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration,
                           double time, const std::map<std::string, std::string>& texts);

  /// The dense field this rank writes, on the loop's thread: its own nodes (collective), or the
  /// whole grid's on rank 0 (empty on the others). Into `dense`, a buffer kept from snapshot
  /// to snapshot: a fresh 67 MB vector costs its pages' first touch, as much as writing it.
  std::vector<T>& download_dense(const Buffer<T>& field, std::vector<T>& dense);
  /// The whole grid's field on rank 0 from every rank's dense nodes `mine` (each rank its own
  /// with parallel HDF5; on one rank `mine` itself, moved, not copied).
  template <typename Dense>
  Dense gather(Dense mine);

  const Case& c_;
  Backend<T>& backend_;
  const Layout& L_;
  output::RunOutput& out_;
  parallel::Comm comm_;
  parallel::Decomposition d_;
  bool collective_ = false;
  output::Hyperslab mine_;  // this rank's nodes in the global grid
  /// The writer removes ghost layers with every core when the sweeps run on a GPU; beside CPU
  /// sweeps, which use every core, on its own thread.
  bool copy_on_all_threads_ = false;
  std::vector<T> source_;       // dense source, when the case writes it
  op::HostArray<T> coefficient_;      // dense coefficient, likewise
  op::HostArray<std::uint8_t> fixed_;  // the held nodes' 0/1 mask, likewise
  op::HostArray<T> capacity_;                    // dense capacity (heat), likewise
  std::vector<T> gathered_u_, gathered_update_;  // the loop thread's dense fields, reused
  std::vector<T> dense_u_, dense_update_;        // the writer thread's, likewise
  /// output.fields flux: the medium its faces come from (null when not written), and the field
  /// of the snapshot being written: the writer thread's, or the loop thread's collective part.
  std::shared_ptr<const op::Medium> flux_medium_;
  std::vector<T> dense_flux_, collective_flux_;
  StagingPool<T> staging_;
  std::int64_t checkpointed_ = -1;
  /// Last: destroyed first, so that the writes still queued (an error or a signal ended the
  /// loop) finish while everything they read is alive.
  output::WriteQueue queue_;
};

extern template class FieldWriter<float>;
extern template class FieldWriter<double>;

}  // namespace fdsolve
