// The communicator of a run: the ranks of `mpirun -n N`, or one rank in a build without MPI
// (or a run started without mpirun). Plain types only: no MPI header leaks past this file, so
// the loop code is the same with and without MPI.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fdsolve::parallel {

/// Nonblocking sends and receives posted through Comm::isend / Comm::irecv, completed together
/// by Comm::wait_all. Opaque, so that no MPI type reaches the header.
class Requests {
 public:
  Requests();
  ~Requests();
  Requests(Requests&&) noexcept;
  Requests& operator=(Requests&&) noexcept;
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
  bool empty() const;

 private:
  friend class Comm;
  struct List;
  std::unique_ptr<List> list_;
};

class Comm {
 public:
  /// The world communicator; MPI must be initialised (MpiSession) when built with MPI.
  static Comm world();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  bool several() const { return size_ > 1; }

  /// Every rank's `bytes` bytes, in rank order, on every rank (MPI_Allgather).
  std::vector<char> allgather(const void* data, std::size_t bytes) const;
  /// Every rank's block concatenated in rank order on every rank (MPI_Allgatherv): rank r gives
  /// `sizes[r]` bytes (every rank passes the same `sizes`), this rank's from `data`.
  std::vector<char> allgather_blocks(const void* data, const std::vector<std::size_t>& sizes) const;
  /// Every rank's block (its own size) concatenated in rank order on rank 0; empty elsewhere.
  std::vector<char> gather_to_root(const void* data, std::size_t bytes) const;
  /// The same into memory of the caller's: rank 0 calls `place(total)` once with the blocks'
  /// total size in bytes and receives them at the address it returns (the other ranks never
  /// call it), so that a field is received where it is kept instead of copied there.
  void gather_to_root_into(const void* data, std::size_t bytes,
                           const std::function<void*(std::size_t)>& place) const;
  /// The reverse of gather_to_root: rank 0's `blocks` (rank r's `bytes[r]` bytes, in rank
  /// order) split among the ranks; each receives its `mine_bytes` bytes into `mine`
  /// (MPI_Scatterv). `blocks` and `bytes` are read on rank 0 only.
  void scatter_from_root(const void* blocks, const std::vector<std::size_t>& bytes, void* mine,
                         std::size_t mine_bytes) const;
  /// The largest `value` over the ranks (integers only: exact in any order).
  long long max(long long value) const;
  /// Sends `send` to rank `dest` and receives `recv` from rank `source` with one tag; a
  /// negative rank skips that half.
  void sendrecv(const void* send, std::size_t send_bytes, int dest, void* recv,
                std::size_t recv_bytes, int source, int tag) const;
  /// Posts a nonblocking send (receive) of `bytes` bytes to (from) rank `peer` with `tag` into
  /// `pending`; the buffer must stay untouched until wait_all(pending) returns. A negative rank
  /// posts nothing.
  void isend(const void* data, std::size_t bytes, int peer, int tag, Requests& pending) const;
  void irecv(void* data, std::size_t bytes, int peer, int tag, Requests& pending) const;
  /// Completes every request in `pending` and empties it.
  void wait_all(Requests& pending) const;
  void barrier() const;
  /// Ends every rank with `code` (a failure seen by one rank while others may be waiting).
  [[noreturn]] void abort(int code) const;

  /// The rank's index among the ranks of its node: the CUDA device it takes.
  int node_rank() const { return node_rank_; }
  /// How many ranks share this rank's node.
  int node_size() const { return node_size_; }
  /// MPI_Dims_create: a balanced split of size() ranks over `dims` axes; entries already
  /// non-zero in `ranks` are kept.
  std::array<int, 3> dims_create(int dims, std::array<int, 3> ranks) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int node_rank_ = 0;
  int node_size_ = 1;
};

/// Initialises MPI for the life of the object (when built with MPI) and finalises it after.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

/// "MPI: on (library version)" or "MPI: off", for --version.
std::string mpi_build_text();

/// Whether the MPI library can send from and receive into CUDA device memory (Open MPI's
/// MPIX_Query_cuda_support at run time); false without MPI or without CUDA support.
bool mpi_cuda_aware();

}  // namespace fdsolve::parallel
