// The communicator over MPI. Every call is checked: MPI_COMM_WORLD returns errors instead of
// aborting, and FDSOLVE_MPI_CHECK turns them into MpiError naming the call.
// The C API only: Open MPI's mpi.h would otherwise pull in its deprecated C++ bindings.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "comm.hpp"

namespace fdsolve::parallel {
namespace {

class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void check(int code, const char* call, const char* file, int line) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw MpiError(fmt::format("{} failed at {}:{}: {}", call, file, line,
                             std::string(text, static_cast<std::size_t>(length))));
}

#define FDSOLVE_MPI_CHECK(call) check((call), #call, __FILE__, __LINE__)

int count_of(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw MpiError(fmt::format("a message of {} bytes is over MPI's int count", bytes));
  return static_cast<int>(bytes);
}

/// The largest power of two up to 4 KiB that divides `bytes`.
std::size_t unit_dividing(std::size_t bytes) {
  std::size_t unit = 4096;
  while (unit > 1 && bytes % unit != 0) unit /= 2;
  return unit;
}

/// Byte counts as counts of `unit`-byte blocks (an MPI contiguous type), so that a gathered or
/// scattered field and its displacements fit MPI's int counts up to 8 TiB instead of 2 GiB (a
/// 16384^2 double field is 2 GiB: its gather to rank 0 for a serial-HDF5 snapshot failed on two
/// H200s). Senders and receivers may use different units: MPI matches the byte sequences.
class Blocks {
 public:
  explicit Blocks(std::size_t unit) : unit_(unit) {
    FDSOLVE_MPI_CHECK(MPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &type_));
    FDSOLVE_MPI_CHECK(MPI_Type_commit(&type_));
  }
  ~Blocks() { MPI_Type_free(&type_); }
  Blocks(const Blocks&) = delete;
  Blocks& operator=(const Blocks&) = delete;

  MPI_Datatype type() const { return type_; }
  /// `bytes` (a multiple of the unit) in blocks.
  int count(std::size_t bytes) const { return count_of(bytes / unit_); }

 private:
  std::size_t unit_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// Whether this process was started by an MPI launcher (mpirun, srun): a plain `fdsolve run`
/// does not initialise MPI, so it starts as fast as a build without MPI.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

bool mpi_running() {
  int ready = 0, done = 0;
  MPI_Initialized(&ready);
  MPI_Finalized(&done);
  return ready && !done;
}

}  // namespace

Comm Comm::world() {
  Comm c;
  if (!mpi_running()) return c;  // one rank
  FDSOLVE_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank_));
  FDSOLVE_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &c.size_));
  MPI_Comm node;
  FDSOLVE_MPI_CHECK(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c.rank_, MPI_INFO_NULL, &node));
  FDSOLVE_MPI_CHECK(MPI_Comm_rank(node, &c.node_rank_));
  FDSOLVE_MPI_CHECK(MPI_Comm_size(node, &c.node_size_));
  FDSOLVE_MPI_CHECK(MPI_Comm_free(&node));
  return c;
}

// One rank may run without MPI initialised (no launcher): its collectives are copies.
std::vector<char> Comm::allgather(const void* data, std::size_t bytes) const {
  if (size_ == 1)
    return std::vector<char>(static_cast<const char*>(data),
                             static_cast<const char*>(data) + bytes);
  std::vector<char> all(bytes * static_cast<std::size_t>(size_));
  const Blocks blocks(unit_dividing(bytes));  // every rank gives `bytes`
  FDSOLVE_MPI_CHECK(MPI_Allgather(data, blocks.count(bytes), blocks.type(), all.data(),
                                  blocks.count(bytes), blocks.type(), MPI_COMM_WORLD));
  return all;
}

std::vector<char> Comm::allgather_blocks(const void* data,
                                         const std::vector<std::size_t>& sizes) const {
  const std::size_t mine = sizes.at(static_cast<std::size_t>(rank_));
  if (size_ == 1) return allgather(data, mine);
  // One unit dividing every size divides every displacement too.
  std::size_t unit = 4096, total = 0;
  for (std::size_t b : sizes) unit = std::min(unit, unit_dividing(b));
  const Blocks blocks(unit);
  std::vector<int> counts, offsets;
  for (std::size_t b : sizes) {
    counts.push_back(blocks.count(b));
    offsets.push_back(blocks.count(total));
    total += b;
  }
  std::vector<char> all(total);
  FDSOLVE_MPI_CHECK(MPI_Allgatherv(data, blocks.count(mine), blocks.type(), all.data(),
                                   counts.data(), offsets.data(), blocks.type(), MPI_COMM_WORLD));
  return all;
}

std::vector<char> Comm::gather_to_root(const void* data, std::size_t bytes) const {
  std::vector<char> all;
  gather_to_root_into(data, bytes, [&](std::size_t total) {
    all.resize(total);
    return static_cast<void*>(all.data());
  });
  return all;
}

void Comm::gather_to_root_into(const void* data, std::size_t bytes,
                               const std::function<void*(std::size_t)>& place) const {
  if (size_ == 1) {
    void* to = place(bytes);
    if (bytes) std::memcpy(to, data, bytes);
    return;
  }
  const long long mine = static_cast<long long>(bytes);
  std::vector<long long> sizes(static_cast<std::size_t>(size_));
  FDSOLVE_MPI_CHECK(
      MPI_Gather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
  // The root's unit divides every rank's size, hence every displacement too.
  std::size_t unit = 4096;
  if (root())
    for (long long b : sizes) unit = std::min(unit, unit_dividing(static_cast<std::size_t>(b)));
  const Blocks send(unit_dividing(bytes)), receive(unit);
  std::vector<int> counts, offsets;
  void* to = nullptr;
  if (root()) {
    std::size_t total = 0;
    for (long long b : sizes) {
      counts.push_back(receive.count(static_cast<std::size_t>(b)));
      offsets.push_back(receive.count(total));
      total += static_cast<std::size_t>(b);
    }
    to = place(total);
  }
  FDSOLVE_MPI_CHECK(MPI_Gatherv(data, send.count(bytes), send.type(), to, counts.data(),
                                offsets.data(), receive.type(), 0, MPI_COMM_WORLD));
}

void Comm::scatter_from_root(const void* blocks, const std::vector<std::size_t>& bytes, void* mine,
                             std::size_t mine_bytes) const {
  if (size_ == 1) {
    if (mine_bytes) std::memcpy(mine, blocks, mine_bytes);
    return;
  }
  std::size_t unit = 4096;
  if (root())
    for (std::size_t b : bytes) unit = std::min(unit, unit_dividing(b));
  const Blocks send(unit), receive(unit_dividing(mine_bytes));
  std::vector<int> counts, offsets;
  if (root()) {
    std::size_t total = 0;
    for (std::size_t b : bytes) {
      counts.push_back(send.count(b));
      offsets.push_back(send.count(total));
      total += b;
    }
  }
  FDSOLVE_MPI_CHECK(MPI_Scatterv(blocks, counts.data(), offsets.data(), send.type(), mine,
                                 receive.count(mine_bytes), receive.type(), 0, MPI_COMM_WORLD));
}

long long Comm::max(long long value) const {
  if (size_ == 1) return value;
  long long out = 0;
  FDSOLVE_MPI_CHECK(MPI_Allreduce(&value, &out, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
  return out;
}

void Comm::sendrecv(const void* send, std::size_t send_bytes, int dest, void* recv,
                    std::size_t recv_bytes, int source, int tag) const {
  FDSOLVE_MPI_CHECK(MPI_Sendrecv(send, count_of(send_bytes), MPI_BYTE,
                                 dest < 0 ? MPI_PROC_NULL : dest, tag, recv, count_of(recv_bytes),
                                 MPI_BYTE, source < 0 ? MPI_PROC_NULL : source, tag, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
}

struct Requests::List {
  std::vector<MPI_Request> requests;
};

Requests::Requests() : list_(std::make_unique<List>()) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;
Requests& Requests::operator=(Requests&&) noexcept = default;
bool Requests::empty() const { return list_->requests.empty(); }

void Comm::isend(const void* data, std::size_t bytes, int peer, int tag, Requests& pending) const {
  if (peer < 0) return;
  MPI_Request r;
  FDSOLVE_MPI_CHECK(MPI_Isend(data, count_of(bytes), MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r));
  pending.list_->requests.push_back(r);
}

void Comm::irecv(void* data, std::size_t bytes, int peer, int tag, Requests& pending) const {
  if (peer < 0) return;
  MPI_Request r;
  FDSOLVE_MPI_CHECK(MPI_Irecv(data, count_of(bytes), MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r));
  pending.list_->requests.push_back(r);
}

void Comm::wait_all(Requests& pending) const {
  std::vector<MPI_Request>& r = pending.list_->requests;
  if (r.empty()) return;
  FDSOLVE_MPI_CHECK(MPI_Waitall(static_cast<int>(r.size()), r.data(), MPI_STATUSES_IGNORE));
  r.clear();
}

void Comm::barrier() const {
  if (size_ > 1) FDSOLVE_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

void Comm::abort(int code) const {
  if (mpi_running()) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // not reached: MPI_Abort does not return
}

std::array<int, 3> Comm::dims_create(int dims, std::array<int, 3> ranks) const {
  if (size_ == 1) return {1, 1, 1};
  FDSOLVE_MPI_CHECK(MPI_Dims_create(size_, dims, ranks.data()));
  for (int a = dims; a < 3; ++a) ranks[a] = 1;
  return ranks;
}

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpi() || mpi_running()) return;
  FDSOLVE_MPI_CHECK(MPI_Init(&argc, &argv));
  // Errors come back as codes (checked above) rather than aborting without a message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  if (mpi_running()) MPI_Finalize();
}

std::string mpi_build_text() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  if (const auto eol = version.find_first_of(",\n"); eol != std::string::npos) version.resize(eol);
  return "MPI: on (" + version + "; CUDA-aware: " + (mpi_cuda_aware() ? "yes" : "no") + ")";
}

bool mpi_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

}  // namespace fdsolve::parallel
