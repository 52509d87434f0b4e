// The choice of the halo's transport over ranks (transport.hpp).
#include "transport.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <set>

#include "agree.hpp"
#include "case_reader.hpp"

namespace fdsolve::parallel {
namespace {

bool g_connected = false;

/// What each rank tells the others before the choice.
struct RankTransport {
  char request = 0;     // TransportRequest
  char has_device = 0;  // the backend offers a device exchange
  char key[16] = {};    // its device's identity (the first 16 bytes)
};

}  // namespace

TransportRequest transport_request() {
  const char* value = std::getenv("FDSOLVE_TRANSPORT");
  if (!value || !*value) return TransportRequest::Auto;
  const std::string v = value;
  if (v == "auto") return TransportRequest::Auto;
  if (v == "nccl") return TransportRequest::Nccl;
  if (v == "mpi") return TransportRequest::Mpi;
  throw InputError("FDSOLVE_TRANSPORT: unknown value '" + v + "' (expected auto, nccl, mpi)");
}

bool device_transport_connected() { return g_connected; }

template <typename T>
bool connect_transport(Backend<T>& backend, const Comm& comm, const std::string& what) {
  if (!comm.several()) return false;
  DeviceExchange<T>* device = backend.device_exchange();
  if (device && device->connected()) return true;
  // Every rank's request and device, agreed: an unknown FDSOLVE_TRANSPORT ends every rank.
  RankTransport mine = agree(comm, [&] {
    RankTransport r;
    r.request = static_cast<char>(transport_request());
    r.has_device = device != nullptr && !backend.host_memory();
    if (r.has_device) {
      const std::string key = device->device_key();
      std::memcpy(r.key, key.data(), std::min(key.size(), sizeof r.key));
    }
    return r;
  });
  const std::vector<char> all = comm.allgather(&mine, sizeof mine);
  bool wants_mpi = false, wants_nccl = false, every_device = true;
  std::set<std::string> keys;
  for (int r = 0; r < comm.size(); ++r) {
    RankTransport t;
    std::memcpy(&t, all.data() + static_cast<std::size_t>(r) * sizeof t, sizeof t);
    wants_mpi |= t.request == static_cast<char>(TransportRequest::Mpi);
    wants_nccl |= t.request == static_cast<char>(TransportRequest::Nccl);
    every_device &= t.has_device != 0;
    keys.insert(std::string(t.key, sizeof t.key));
  }
  // Why the device exchange is not taken; empty when it is.
  std::string why_not;
  if (wants_mpi)
    why_not = "FDSOLVE_TRANSPORT=mpi";
  else if (backend.host_memory())
    why_not = "the " + backend.name() + " backend's buffers are host memory";
  else if (!every_device)
    why_not = "fdsolve was built without NCCL";
  else if (keys.size() < static_cast<std::size_t>(comm.size()))
    why_not = "ranks share a GPU (NCCL needs a GPU of its own per rank)";
  const std::string fallback = backend.host_memory() ? "host memory"
                               : mpi_cuda_aware()    ? "MPI from device memory"
                                                     : "staged through host memory for MPI";
  if (!why_not.empty()) {
    if (wants_nccl && !wants_mpi)
      agree(comm, [&] { throw InputError("FDSOLVE_TRANSPORT=nccl: " + why_not); });
    // CPU ranks say nothing unasked: run_command's line names their path.
    if (comm.root() && (!backend.host_memory() || wants_mpi))
      spdlog::info("{}: {} ({})", what, fallback, why_not);
    return false;
  }
  std::vector<char> id =
      agree(comm, [&] { return comm.root() ? device->unique_id() : std::vector<char>{}; });
  // Rank 0's unique id to every rank (an all-gather: Comm has no broadcast).
  std::size_t bytes = id.size();
  const std::vector<char> sizes = comm.allgather(&bytes, sizeof bytes);
  std::memcpy(&bytes, sizes.data(), sizeof bytes);
  id.resize(bytes);
  const std::vector<char> ids = comm.allgather(id.data(), bytes);
  id.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(bytes));
  agree(comm, [&] { device->connect(id, comm.rank(), comm.size()); });
  g_connected = true;
  if (comm.root())
    spdlog::info("{}: nccl ({}, device to device on the transfer stream)", what, device->library());
  return true;
}

template bool connect_transport<float>(Backend<float>&, const Comm&, const std::string&);
template bool connect_transport<double>(Backend<double>&, const Comm&, const std::string&);

}  // namespace fdsolve::parallel
