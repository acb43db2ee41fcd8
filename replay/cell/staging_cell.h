// The staging cell (`spindle replay --mode cell`): a trace replayed against
// real processes over the real wire. RunStagingCell writes the cell's
// configuration under the work dir (cell_config.h), starts `spindle rm`
// (ports picked at run time, read from its --ports-file) and
// CellOptions::nm_processes `spindle nm --nodes-file` agents hosting the
// trace's nodes with their names and sizes (their racks come from the RM's
// topology table), and waits until every node is RUNNING on its rack. Then,
// for each job at its arrival / speed (wall), it submits the application
// (getNewApplication, submitApplication in the job's queue, as its user,
// with its priority) and runs a simulated MapReduce AM for it in this
// process (cell_am.h).
//
// The AMs are unmanaged (submitted with unmanaged_am; the driver takes the
// AMRMToken from the application report, which the RM shows the submitting
// user once the attempt is launched). A managed AM would need a container
// on a simulated node to hand its token to this process, and the RM's AM
// launcher to resolve the trace's node names; an unmanaged AM costs no
// container, as SLS's AM simulators cost none.
//
// With CellOptions::external_rms the cell starts no RM: its agents register
// with that RM's resource tracker (none of the trace's hosts may be live in
// it already) and the jobs go to its client and scheduler addresses, so an
// operator's Java RM and Spindle replay the same trace.
//
// Several external RMs are an HA pair (rm-ids in order), and everything the
// cell drives fails over as Hadoop's clients do (Java 3.3's RMProxy with
// ConfiguredRMFailoverProxyProvider and RetryPolicies
// .failoverOnNetworkException, through am_protocol::RmFailoverProxy: on
// StandbyException or a lost connection the next rm-id, round robin, with
// the policy's exponential sleeps): the client calls (one proxy per user,
// as each user's YarnClient has its own), each AM's calls (its own proxy;
// it re-registers on ApplicationMasterNotRegisteredException, cell_am.h),
// and the agents' heartbeats (their configuration names every rm-id; a node
// the new active does not know is told to resync and registers again with
// its containers). A submission the new active does not know (the old one
// died before storing it) is submitted again, as YarnClientImpl does. The
// result's `failover` says what the proxies saw. Either way, every
// queue-sample interval the cell takes a tenant census (tenant_census.h)
// into ReplayModeResult::tenants.
//
// Everything goes to `recorder` in trace time (wall elapsed x speed), so
// the AMs' heartbeat (CellOptions::heartbeat_interval, wall) is a floor on
// the delays it sees: at speed 20 and 100 ms, a task waits up to 2 s of
// trace time for the next allocate even if the RM placed it at once. The
// run's checks (cell_audit.h: each task ran once, on a node of the cell,
// after its parents; queues within their maximum capacity, sampled with
// getQueueInfo) become the result's violations. Jobs unfinished at
// run_timeout are violations too, not errors.
//
// Errors (the run stops, children are stopped): invalid options; a file
// that cannot be written; a daemon that does not start, exits, or whose
// nodes do not register within start_timeout; a trace read error.
//
// Thread-safety: RunStagingCell may run on any thread; it blocks until the
// replay ends and uses one thread (plus the RPC client's I/O thread).
#pragma once

#include "base/result.h"
#include "replay/cell/cell_audit.h"
#include "replay/cell/cell_options.h"
#include "replay/report/replay_recorder.h"
#include "replay/report/replay_result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

// Replays `jobs` through a staging cell built per `options`; `recorder`
// must be built for this cell (CellRecorderOptions). `log`, if given, gets
// every task run and the queue samples' peaks.
Result<ReplayModeResult> RunStagingCell(const CellOptions& options, TraceReader* jobs,
                                        ReplayRecorder* recorder, CellRunLog* log = nullptr);

// A recorder's options for the cell: its capacity (the nodes' sum) and its
// queues (CellOptions::queues resolved, each guaranteed its capacity).
RecorderOptions CellRecorderOptions(const CellOptions& options);

}  // namespace spindle::replay
