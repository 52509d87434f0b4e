// How the halo travels between the ranks of a run on GPUs: device to device through the
// backend's DeviceExchange (NCCL) where every rank can take it, else staged through host memory
// for MPI (HaloExchange's fallback, and always on CPU ranks). FDSOLVE_TRANSPORT picks: unset or
// `auto` the device exchange where it is possible, `nccl` the device exchange or an error
// saying why not, `mpi` the staged path.
#pragma once

#include <string>

#include "backend.hpp"
#include "comm.hpp"

namespace fdsolve::parallel {

enum class TransportRequest { Auto, Nccl, Mpi };

/// FDSOLVE_TRANSPORT read from the environment; an unknown value is an InputError naming it.
TransportRequest transport_request();

/// Connects `backend`'s device exchange over the ranks of `comm` where every rank has one, on
/// a device of its own, and FDSOLVE_TRANSPORT allows it; afterwards every HaloExchange on this
/// backend takes it. Collective (every rank calls it at the same point; one rank does
/// nothing) and agreed: a failure on one rank is reported once and ends every rank. Logs the
/// choice on rank 0 (`what` names the exchange, e.g. "halo exchange"). Returns whether the
/// device exchange is connected.
template <typename T>
bool connect_transport(Backend<T>& backend, const Comm& comm, const std::string& what);

/// Whether a backend of this process connected its device exchange (connect_transport): the
/// run's GPU halos travel through NCCL (exchange_path's words).
bool device_transport_connected();

}  // namespace fdsolve::parallel
