// The environment of a distributed job (Note [PS environment]).
//
// Note [PS environment]
//   WEFT_ROLE            worker | server | scheduler   (DMLC_ROLE accepted)
//   WEFT_PS_ROOT_URI     the scheduler's address        (DMLC_PS_ROOT_URI)
//   WEFT_PS_ROOT_PORT    the scheduler's port           (DMLC_PS_ROOT_PORT)
//   WEFT_NUM_WORKER      number of workers              (DMLC_NUM_WORKER)
//   WEFT_NUM_SERVER      number of servers              (DMLC_NUM_SERVER)
//   WEFT_PS_TIMEOUT      seconds without a heartbeat before a peer counts as
//                        dead and the whole job stops with an error (60)
//   WEFT_PS_SECRET       the job's secret, hex (Note [PS authentication] in
//                        ps_auth.h); python -m weft.launch draws one per job
//   WEFT_NODE_HOST       the address this node advertises to the others and
//                        listens on; default: 127.0.0.1 when the scheduler is
//                        on loopback, otherwise the local address of the route
//                        to it (right inside a network namespace too). The
//                        scheduler listens on WEFT_NODE_HOST when it is set,
//                        else on the address WEFT_PS_ROOT_URI names.
//   WEFT_NODE_PORT       a server's data port (default: any free port)
//   WEFT_PS_MAX_MESSAGE_BYTES  larger messages are rejected (default 1 GiB)
//   WEFT_KVSTORE_BIGARRAY_BOUND  arrays with at least this many elements are
//                        split by range across all servers (1000000; MXNet's
//                        MXNET_KVSTORE_BIGARRAY_BOUND is read too)
#pragma once
#include <cstdint>
#include <string>

namespace weft {
namespace ps {

enum class Role : int32_t { kWorker = 0, kServer = 1, kScheduler = 2 };
const char* RoleName(Role r);

struct Config {
  Role role = Role::kWorker;
  std::string root_uri;
  int root_port = 0;
  int num_workers = 0;
  int num_servers = 0;
  double timeout_s = 60;
  std::string node_host;
  bool node_host_given = false;  // WEFT_NODE_HOST was set
  int node_port = 0;
  std::string secret;            // WEFT_PS_SECRET's bytes
  uint64_t max_message_bytes = uint64_t{1} << 30;
  int64_t bigarray_bound = 1000000;

  // Reads the variables above; throws kInvalidArgument naming a missing or
  // malformed one.
  static Config FromEnv();
  // True when WEFT_ROLE / DMLC_ROLE is set (a launched process).
  static bool Launched();
  std::string SchedulerEndpoint() const;  // tcp://uri:port
  // The numeric address this node listens on (never every interface):
  // node_host for servers; for the scheduler WEFT_NODE_HOST, else root_uri.
  // Throws kInvalidArgument when the name does not resolve.
  std::string ListenAddress() const;
};

// Heartbeat period for a given timeout: often enough that a live peer is never
// mistaken for a dead one, rarely enough to cost nothing.
int HeartbeatIntervalMs(double timeout_s);

}  // namespace ps
}  // namespace weft
