#include "rm/config/key_catalog.h"

#include <cctype>
#include <vector>

#include "rm/config/hadoop_line.h"

namespace spindle::rm {

namespace {

using Defaults = std::array<const char*, kHadoopLineCount>;
constexpr Defaults All(const char* value) { return {value, value, value}; }
constexpr Defaults kNoHadoopKey = {nullptr, nullptr, nullptr};

constexpr uint8_t kRm = kReadByRm;
constexpr uint8_t kNm = kReadByNm;
constexpr uint8_t kNone = kReadByNone;

constexpr auto kHonoured = KeySupport::kHonoured;
constexpr auto kIgnored = KeySupport::kIgnored;
constexpr auto kUnsupported = KeySupport::kUnsupported;
constexpr auto kNotForRm = KeySupport::kNotForRm;

constexpr auto kText = ValueKind::kText;
constexpr auto kInt = ValueKind::kInt;
constexpr auto kBool = ValueKind::kBool;
constexpr auto kDouble = ValueKind::kDouble;
constexpr auto kHostPort = ValueKind::kHostPort;

constexpr auto kNote = Impact::kNote;
constexpr auto kWarning = Impact::kWarning;
constexpr auto kBlocker = Impact::kBlocker;

constexpr char kCapacityScheduler[] =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler";
constexpr char kFileSystemStore[] =
    "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore";
constexpr char kNoKerberos[] =
    "used only with Kerberos on HTTP (SPNEGO, delegation-token auth), which Spindle does not "
    "implement yet";
constexpr char kNoHa[] = "Spindle's HA (see yarn.resourcemanager.ha.enabled) does not read it";
constexpr char kNoZooKeeper[] =
    "Spindle's ZooKeeper clients (the state store, the embedded elector) do not read it";
constexpr char kNoLabels[] =
    "Spindle's node labels (cluster labels, partitions, per-label queue capacities) do not read "
    "it";
constexpr char kNoReservations[] =
    "the reservation system is not implemented (see "
    "yarn.resourcemanager.reservation-system.enable)";
constexpr char kNoHeartbeatScheduling[] =
    "Spindle's schedulers place containers apart from node heartbeats, so per-heartbeat "
    "assignment limits do not apply";
constexpr char kRmSideOnly[] = "Spindle does not read it; nothing an operator would notice changes";
constexpr char kNodeManagerKey[] = "read by NodeManagers (the Java NM, or spindle nm)";
constexpr char kClientKey[] = "read by clients and ApplicationMasters";

// The catalogue. Order: RM addresses and servers, scheduler limits, nodes,
// applications, security, recovery, web, CapacityScheduler, features Spindle
// lacks, spindle.* keys, keys other daemons read.
const KeySpec kCatalog[] = {
    // ---- addresses, servers ----
    {"yarn.resourcemanager.hostname", kHonoured, kRm | kNm, kText, "0.0.0.0", All("0.0.0.0"),
     "the host of every RM address that names none (clients 8032, AMs 8030, NodeManagers 8031, "
     "admin 8033, web 8088)"},
    {"yarn.resourcemanager.address", kHonoured, kRm, kHostPort,
     "${yarn.resourcemanager.hostname}:8032", All("${yarn.resourcemanager.hostname}:8032"),
     "ApplicationClientProtocol: yarn CLI, job clients"},
    {"yarn.resourcemanager.scheduler.address", kHonoured, kRm, kHostPort,
     "${yarn.resourcemanager.hostname}:8030", All("${yarn.resourcemanager.hostname}:8030"),
     "ApplicationMasterProtocol: ApplicationMasters"},
    {"yarn.resourcemanager.resource-tracker.address", kHonoured, kRm | kNm, kHostPort,
     "${yarn.resourcemanager.hostname}:8031", All("${yarn.resourcemanager.hostname}:8031"),
     "ResourceTracker: where NodeManagers register and heartbeat"},
    {"yarn.resourcemanager.admin.address", kHonoured, kRm, kHostPort,
     "${yarn.resourcemanager.hostname}:8033", All("${yarn.resourcemanager.hostname}:8033"),
     "ResourceManagerAdministrationProtocol: yarn rmadmin"},
    {"yarn.resourcemanager.webapp.address", kHonoured, kRm, kHostPort,
     "${yarn.resourcemanager.hostname}:8088", All("${yarn.resourcemanager.hostname}:8088"),
     "web UI and REST API (/cluster, /ws/v1/cluster, /jmx, /conf)"},
    {"yarn.resourcemanager.bind-host", kHonoured, kRm, kText, "", All(""),
     "every RM server binds this host instead of its address's host"},
    {"yarn.web-proxy.address", kHonoured, kRm, kText, "", All(""),
     "tracking URLs point at this web proxy (else at the RM's web address)"},
    {"yarn.resourcemanager.client.thread-count", kHonoured, kRm, kInt, "50", All("50"),
     "RPC handler threads of the client port (clamped to 1..256)"},
    {"yarn.resourcemanager.scheduler.client.thread-count", kHonoured, kRm, kInt, "50", All("50"),
     "RPC handler threads of the AM port (clamped to 1..256)"},
    {"yarn.resourcemanager.resource-tracker.client.thread-count", kHonoured, kRm, kInt, "50",
     All("50"), "RPC handler threads of the NodeManager port (clamped to 1..256)"},
    {"yarn.resourcemanager.admin.client.thread-count", kHonoured, kRm, kInt, "50", All("1"),
     "RPC handler threads of the admin port (clamped to 1..256)"},
    {"ipc.maximum.data.length",
     kHonoured,
     kRm,
     kInt,
     "134217728",
     {"67108864", "67108864", "134217728"},
     "largest RPC request accepted, in bytes"},
    {"ipc.server.max.connections",
     kHonoured,
     kRm,
     kInt,
     "0",
     {nullptr, "0", "0"},
     "open connections each RM RPC server takes (0 = no limit); one more is closed at accept "
     "unanswered and counted as dropped, as Hadoop 2.7+ does"},
    // ---- scheduler limits ----
    {"yarn.scheduler.minimum-allocation-mb", kHonoured, kRm, kInt, "1024", All("1024"),
     "asks are rounded up to a multiple of it"},
    {"yarn.scheduler.minimum-allocation-vcores", kHonoured, kRm, kInt, "1", All("1"),
     "asks are rounded up to a multiple of it"},
    {"yarn.scheduler.maximum-allocation-mb", kHonoured, kRm, kInt, "8192", All("8192"),
     "larger asks are refused (InvalidResourceRequestException)"},
    {"yarn.scheduler.maximum-allocation-vcores",
     kHonoured,
     kRm,
     kInt,
     "4",
     {"32", "32", "4"},
     "larger asks are refused (InvalidResourceRequestException)"},
    {"yarn.cluster.max-application-priority",
     kHonoured,
     kRm,
     kInt,
     "0",
     {nullptr, nullptr, "0"},
     "the highest application priority accepted"},
    // ---- nodes ----
    {"yarn.nm.liveness-monitor.expiry-interval-ms", kHonoured, kRm, kInt, "600000", All("600000"),
     "a NodeManager silent this long is LOST; also paces NM-token and container-token key "
     "activation"},
    {"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", kHonoured, kRm, kInt, "1000",
     All("1000"), "the heartbeat interval NodeManagers are told to use"},
    {"yarn.resourcemanager.nodes.include-path", kHonoured, kRm, kText, "", All(""),
     "hosts file of the NodeManagers allowed to register (read at start and on "
     "yarn rmadmin -refreshNodes)"},
    {"yarn.resourcemanager.nodes.exclude-path", kHonoured, kRm, kText, "", All(""),
     "hosts file of the NodeManagers refused or decommissioned (read at start and on "
     "yarn rmadmin -refreshNodes)"},
    {"net.topology.node.switch.mapping.impl", kHonoured, kRm, kText,
     "org.apache.hadoop.net.ScriptBasedMapping", All("org.apache.hadoop.net.ScriptBasedMapping"),
     "rack of each node: TableMapping reads net.topology.table.file.name; without it every node "
     "is on /default-rack",
     "*TableMapping|*ScriptBasedMapping", kWarning, false,
     "Spindle runs no custom DNSToSwitchMapping: every node is on /default-rack (rack locality is "
     "lost); use org.apache.hadoop.net.TableMapping"},
    {"net.topology.script.file.name", kUnsupported, kRm, kText, "", All(""),
     "Spindle runs no rack script", "", kWarning, false,
     "rack scripts are not run: every node is on /default-rack (rack locality is lost); use "
     "net.topology.node.switch.mapping.impl=org.apache.hadoop.net.TableMapping with "
     "net.topology.table.file.name"},
    {"net.topology.table.file.name", kHonoured, kRm, kText, "", All(""),
     "host-to-rack table, read when the mapping is TableMapping"},
    // ---- applications ----
    {"yarn.resourcemanager.am.max-attempts", kHonoured, kRm, kInt, "2", All("2"),
     "attempts per application (an application may ask for fewer)"},
    // YarnConfiguration constants (not in yarn-default.xml) since 2.8.
    {"yarn.resourcemanager.am-scheduling.node-blacklisting-enabled",
     kHonoured,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "a new attempt's AM container avoids nodes earlier AM containers failed on (3.3 line)"},
    {"yarn.resourcemanager.am-scheduling.node-blacklisting-disable-threshold",
     kHonoured,
     kRm,
     kDouble,
     "0.2",
     {nullptr, nullptr, "0.2"},
     "the AM blacklist is ignored once it holds this share of the usable nodes"},
    {"yarn.am.liveness-monitor.expiry-interval-ms", kHonoured, kRm, kInt, "600000", All("600000"),
     "an AM silent this long fails its attempt; also paces AMRM-token key activation"},
    {"yarn.resourcemanager.max-completed-applications",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {"10000", "10000", "1000"},
     "finished applications kept and listed"},
    {"yarn.resourcemanager.rm.container-allocation.expiry-interval-ms", kHonoured, kRm, kInt,
     "600000", All("600000"), "lifetime of a container token"},
    {"yarn.log-aggregation-enable", kHonoured, kRm, kBool, "false", All("false"),
     "reported to clients in application reports; NodeManagers aggregate the logs"},
    // ---- security ----
    {"yarn.acl.enable", kHonoured, kRm, kBool, "false", All("false"),
     "queue and application ACLs are enforced"},
    {"yarn.admin.acl", kHonoured, kRm, kText, "*", All("*"),
     "who may run admin commands and see every application"},
    {"yarn.resourcemanager.container-tokens.master-key-rolling-interval-secs", kHonoured, kRm, kInt,
     "86400", All("86400"), "how often the container-token master key rolls"},
    {"yarn.resourcemanager.nm-tokens.master-key-rolling-interval-secs", kHonoured, kRm, kInt,
     "86400", All("86400"), "how often the NM-token master key rolls"},
    {"yarn.resourcemanager.am-rm-tokens.master-key-rolling-interval-secs", kHonoured, kRm, kInt,
     "86400", All("86400"), "how often the AMRM-token master key rolls"},
    {"yarn.resourcemanager.delegation.key.update-interval", kHonoured, kRm, kInt, "86400000",
     All("86400000"), "how often the RM delegation-token master key rolls"},
    {"yarn.resourcemanager.delegation.token.renew-interval", kHonoured, kRm, kInt, "86400000",
     All("86400000"), "how long an RM delegation token lives without a renewal"},
    {"yarn.resourcemanager.delegation.token.max-lifetime", kHonoured, kRm, kInt, "604800000",
     All("604800000"), "the longest an RM delegation token may be renewed to"},
    {"hadoop.security.authentication", kHonoured, kRm | kNm, kText, "simple", All("simple"),
     "simple: SIMPLE and TOKEN, as a non-secure Hadoop cluster; kerberos: spindle rm and spindle "
     "nm log in from their keytabs (or refuse to start) and the RM's client, resource-tracker and "
     "admin ports take KERBEROS (SASL GSSAPI) and TOKEN, never SIMPLE",
     "simple|kerberos", kBlocker, true,
     "spindle rm refuses to start: Hadoop's other methods (token, certificate, kerberos_ssl, "
     "proxy) are not supported, and an unknown value is Hadoop's 'Invalid attribute value'"},
    {"hadoop.rpc.protection", kHonoured, kRm | kNm, kText, "authentication", All("authentication"),
     "SASL quality of protection of every RPC port and of Spindle's own clients, a list in order "
     "of preference: authentication (auth), integrity (auth-int: HMAC-MD5 under DIGEST-MD5, "
     "gss_wrap without confidentiality under GSSAPI), privacy (auth-conf: 3DES under "
     "DIGEST-MD5, the cipher Java clients pick; gss_wrap with confidentiality under GSSAPI); with "
     "integrity or privacy every RPC frame is SASL-wrapped as Hadoop wraps it",
     nullptr, kBlocker, true,
     "a word other than authentication, integrity or privacy stops spindle rm and spindle nm "
     "with Hadoop's 'No enum constant' error"},
    {"hadoop.security.authorization", kHonoured, kRm, kBool, "false", All("false"),
     "true: every RPC connection is checked against the service ACLs of hadoop-policy.xml "
     "(security.<protocol>.protocol.acl, .blocked, and from 2.7 the .hosts lists), as Hadoop's "
     "ServiceAuthorizationManager does, and rmadmin -refreshServiceAcl reloads them; it also "
     "guards /jmx and /conf (with hadoop.security.instrumentation.requires.admin)"},
    {"hadoop.security.instrumentation.requires.admin", kHonoured, kRm, kBool, "false", All("false"),
     "/jmx and /conf answer only admins (with hadoop.security.authorization)"},
    {"hadoop.security.groups.cache.secs", kHonoured, kRm, kInt, "300", All("300"),
     "how long a user's groups are cached"},
    {"hadoop.user.group.static.mapping.overrides", kHonoured, kRm, kText, "dr.who=;",
     All("dr.who=;"), "fixed groups of some users, before the operating system is asked"},
    {"hadoop.security.group.mapping", kHonoured, kNone, kText,
     "org.apache.hadoop.security.JniBasedUnixGroupsMappingWithFallback",
     All("org.apache.hadoop.security.JniBasedUnixGroupsMappingWithFallback"),
     "groups come from the operating system (getgrouplist), as the Unix mappings do",
     "*JniBasedUnixGroupsMappingWithFallback|*JniBasedUnixGroupsMapping|"
     "*ShellBasedUnixGroupsMapping",
     kWarning, false,
     "Spindle resolves groups from the operating system only: queue and admin ACLs that name "
     "groups of this mapping (LDAP, netgroups, a composite) do not match"},
    {"hadoop.security.auth_to_local", kHonoured, kRm | kNm, kText, "", All(""),
     "with Kerberos, principals become short user names as Hadoop's KerberosName maps them "
     "(DEFAULT, RULE:[n:fmt](re)s/x/y/g, /L); a principal no rule maps is refused"},
    {"hadoop.security.auth_to_local.mechanism",
     kHonoured,
     kRm | kNm,
     kText,
     "hadoop",
     {nullptr, nullptr, "hadoop"},
     "hadoop: a principal no rule maps is refused; mit: it is kept whole, as MIT's krb5 does "
     "(the key is Hadoop 2.8's; Spindle reads it on every line)",
     "hadoop|mit",
     kBlocker,
     true,
     "an unknown mechanism is refused at start, as Hadoop does"},
    {"hadoop.security.token.service.use_ip", kIgnored, kNone, kBool, nullptr, All("true"),
     "Spindle does not read it: token services carry the address as configured", nullptr, kNote},
    {"yarn.resourcemanager.principal", kHonoured, kRm, kText, "", All(""),
     "with Kerberos, the RM's principal (_HOST: the host of yarn.resourcemanager.address)"},
    {"yarn.resourcemanager.keytab", kHonoured, kRm, kText, "/etc/krb5.keytab",
     All("/etc/krb5.keytab"), "with Kerberos, the keytab spindle rm logs in from"},
    {"yarn.nodemanager.principal", kHonoured, kRm | kNm, kText, "", All(""),
     "with Kerberos, the node's principal (_HOST: this machine's canonical name); with "
     "hadoop.security.authorization the RM's resource tracker takes only this principal (_HOST: "
     "the caller's canonical name)"},
    {"yarn.nodemanager.keytab", kHonoured, kNm, kText, "/etc/krb5.keytab", All("/etc/krb5.keytab"),
     "with Kerberos, the keytab spindle nm logs in from"},
    {"yarn.resourcemanager.webapp.spnego-principal",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, ""},
     kNoKerberos,
     nullptr,
     kNote},
    {"yarn.resourcemanager.webapp.spnego-keytab-file",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, ""},
     kNoKerberos,
     nullptr,
     kNote},
    {"hadoop.proxyuser.<user>.hosts", kHonoured, kRm, kText, "", All(""),
     "where <user> may connect from to act for others (IPs, CIDR ranges, host names resolved when "
     "read, or *)"},
    {"hadoop.proxyuser.<user>.groups", kHonoured, kRm, kText, "", All(""),
     "groups whose members <user> may act for (doAs; * for anyone)"},
    {"hadoop.proxyuser.<user>.users", kHonoured, kRm, kText, "", All(""),
     "users <user> may act for (doAs; * for anyone)"},
    {"yarn.resourcemanager.proxyuser.<user>.hosts", kHonoured, kRm, kText, "", All(""),
     "where <user> may connect from to act for others (IPs, CIDR ranges, host names resolved when "
     "read, or *) (copied onto hadoop.proxyuser.<user>.*, as RMServerUtils.processRMProxyUsersConf "
     "does)"},
    {"yarn.resourcemanager.proxyuser.<user>.groups", kHonoured, kRm, kText, "", All(""),
     "groups whose members <user> may act for (doAs; * for anyone) (copied onto "
     "hadoop.proxyuser.<user>.*, as RMServerUtils.processRMProxyUsersConf does)"},
    {"yarn.resourcemanager.proxyuser.<user>.users", kHonoured, kRm, kText, "", All(""),
     "users <user> may act for (doAs; * for anyone) (copied onto hadoop.proxyuser.<user>.*, as "
     "RMServerUtils.processRMProxyUsersConf does)"},
    // ---- recovery ----
    {"yarn.resourcemanager.recovery.enabled", kHonoured, kRm, kBool, "false", All("false"),
     "applications, attempts and security keys are persisted and recovered after a restart"},
    {"yarn.resourcemanager.store.class", kHonoured, kRm, kText, "rocksdb", All(kFileSystemStore),
     "the state store: Spindle's embedded RocksDB store (LeveldbRMStateStore), ZooKeeper in "
     "ZKRMStateStore's layout (ZKRMStateStore), a local directory in FileSystemRMStateStore's "
     "layout (FileSystemRMStateStore), memory or null",
     "rocksdb|memory|null|zookeeper|filesystem|*.LeveldbRMStateStore|*.MemoryRMStateStore|"
     "*.NullRMStateStore|*.ZKRMStateStore|*.FileSystemRMStateStore",
     kBlocker, true,
     "spindle rm refuses to start on a store class it does not have; use "
     "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore, "
     "FileSystemRMStateStore (local or file:// only), LeveldbRMStateStore (Spindle's embedded "
     "RocksDB store) or NullRMStateStore"},
    {"yarn.resourcemanager.leveldb-state-store.path",
     kHonoured,
     kRm,
     kText,
     "${hadoop.tmp.dir}/yarn/system/rmstore",
     {nullptr, "${hadoop.tmp.dir}/yarn/system/rmstore", "${hadoop.tmp.dir}/yarn/system/rmstore"},
     "directory of the embedded store (spindle.store.path wins); Spindle's RocksDB files are not "
     "a Java RM's LevelDB store"},
    {"yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", kHonoured, kRm, kInt,
     "10000", All("10000"),
     "after a restart, new placements wait this long for the previous run's nodes"},
    {"yarn.resourcemanager.work-preserving-recovery.enabled",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {"false", "true", "true"},
     "Spindle always recovers work-preserving",
     "true",
     kWarning,
     false,
     "Spindle always recovers work-preserving: running containers of resyncing NodeManagers are "
     "kept, not killed"},
    {"yarn.resourcemanager.state-store.max-completed-applications", kIgnored, kNone, kInt, nullptr,
     All("${yarn.resourcemanager.max-completed-applications}"),
     "Spindle applies no separate limit to the finished applications in its store", nullptr, kNote},
    {"yarn.resourcemanager.leveldb-state-store.compaction-interval-secs",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, "3600", "3600"},
     "RocksDB compacts by itself",
     nullptr,
     kNote},
    {"yarn.resourcemanager.fs.state-store.uri", kHonoured, kRm, kText,
     "${hadoop.tmp.dir}/yarn/system/rmstore", All("${hadoop.tmp.dir}/yarn/system/rmstore"),
     "directory of the FileSystemRMStateStore store (Hadoop's layout and .crc files): a local "
     "path or file:// URI; a path without a scheme is on fs.defaultFS. Spindle has no HDFS (or "
     "other remote file system) client: with that store, another scheme refuses the start"},
    {"yarn.resourcemanager.fs.state-store.num-retries",
     kHonoured,
     kRm,
     kInt,
     "0",
     {nullptr, "0", "0"},
     "retries of a FileSystem store operation failing with an I/O error"},
    {"yarn.resourcemanager.fs.state-store.retry-interval-ms",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {nullptr, "1000", "1000"},
     "pause between those retries"},
    {"yarn.resourcemanager.fs.state-store.retry-policy-spec",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {"2000, 500", "2000, 500", nullptr},
     "the HDFS client's retry policy for the FileSystem store; Spindle's store is local",
     nullptr,
     kNote},
    {"fs.defaultFS", kHonoured, kRm, kText, "file:///", All("file:///"),
     "the file system of a FileSystemRMStateStore URI without a scheme (only file:/// is "
     "supported there)"},
    {"hadoop.tmp.dir", kHonoured, kRm | kNm, kText, "/tmp/hadoop-${user.name}",
     All("/tmp/hadoop-${user.name}"),
     "base of the default state-store path (and of spindle nm's local and log dirs)"},
    // ---- web ----
    {"hadoop.http.max.threads", kHonoured, kRm, kInt, "-1", All("-1"),
     "web handler threads (-1: Spindle's 4; Jetty's default in Hadoop)"},
    {"hadoop.http.max.request.header.size",
     kHonoured,
     kRm,
     kInt,
     "65536",
     {nullptr, nullptr, "65536"},
     "largest HTTP request header accepted"},
    {"hadoop.http.idle_timeout.ms",
     kHonoured,
     kRm,
     kInt,
     "60000",
     // 3.3.0: HttpServer2's 10000; core-default.xml says 60000 from 3.3.1 (HDFS-15719).
     {nullptr, nullptr, "60000"},
     "an idle keep-alive HTTP connection is closed after this long"},
    {"hadoop.http.socket.backlog.size",
     kHonoured,
     kRm,
     kInt,
     "128",
     // 2.6/2.7 fix Jetty's accept queue at 128 (HttpServer2.createDefaultChannelConnector).
     {nullptr, nullptr, "128"},
     "connections the kernel queues for the web server to accept (capped by "
     "net.core.somaxconn)"},
    {"hadoop.http.acceptor.count",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "-1"},
     "Jetty's acceptor threads: Spindle's web server accepts and reads every connection on one "
     "I/O thread and runs handlers on hadoop.http.max.threads",
     nullptr,
     kNote},
    {"hadoop.http.selector.count",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "-1"},
     "Jetty's selector threads: Spindle's web server accepts and reads every connection on one "
     "I/O thread and runs handlers on hadoop.http.max.threads",
     nullptr,
     kNote},
    {"hadoop.http.max.response.header.size",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "65536"},
     "Spindle's web server does not limit the size of the response headers it writes",
     nullptr,
     kNote},
    {"hadoop.http.staticuser.user", kHonoured, kRm, kText, "dr.who", All("dr.who"),
     "the user of web requests that name none"},
    {"hadoop.security.sensitive-config-keys",
     kHonoured,
     kRm,
     kText,
     "(Hadoop 3.3's list)",
     {nullptr, "(Hadoop 2.7's list)", "(Hadoop 3.3's list)"},
     "values /conf redacts"},
    {"hadoop.http.authentication.type", kHonoured, kRm, kText, "simple", All("simple"),
     "with an authentication filter (hadoop.http.filter.initializers): simple takes ?user.name, "
     "kerberos asks for SPNEGO (Authorization: Negotiate) on every web path; either signs a "
     "hadoop.auth cookie that later requests may carry instead",
     "simple|kerberos", kBlocker, true,
     "spindle rm refuses to start: Hadoop's other handlers (ldap, multi-scheme, jwt, a class name) "
     "are not implemented"},
    {"yarn.http.policy", kHonoured, kNone, kText, "HTTP_ONLY", All("HTTP_ONLY"),
     "the web UI and REST API are served over HTTP", "HTTP_ONLY", kBlocker, false,
     "HTTPS is not implemented: the web UI and REST API are served over plain HTTP only"},
    {"hadoop.ssl.enabled", kHonoured, kNone, kBool, "false", All("false"),
     "the web is served over HTTP", "false", kBlocker, false, "SSL is not implemented"},
    {"hadoop.ssl.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey,
     "SSL is not implemented (see hadoop.ssl.enabled)", nullptr, kNote},
    {"hadoop.http.authentication.simple.anonymous.allowed", kHonoured, kRm, kBool, "true",
     All("true"),
     "with simple web authentication, whether a request without ?user.name is served (as the "
     "static user) or answered 401 (WWW-Authenticate: PseudoAuth)"},
    {"hadoop.http.authentication.kerberos.principal", kHonoured, kRm, kText, "HTTP/_HOST@LOCALHOST",
     All("HTTP/_HOST@LOCALHOST"),
     "with kerberos web authentication, the SPNEGO principal (_HOST: the web server's bind host; "
     "*: every HTTP/ key of the keytab)"},
    {"hadoop.http.authentication.kerberos.keytab", kHonoured, kRm, kText,
     "${user.home}/hadoop.keytab", All("${user.home}/hadoop.keytab"),
     "with kerberos web authentication, the keytab of the SPNEGO principal (spindle rm refuses to "
     "start when it cannot serve the principal)"},
    {"hadoop.http.authentication.kerberos.name.rules", kHonoured, kRm, kText, "", kNoHadoopKey,
     "auth_to_local rules for SPNEGO users only (default: hadoop.security.auth_to_local)"},
    {"hadoop.http.authentication.kerberos.name.rules.mechanism", kHonoured, kRm, kText, "hadoop",
     kNoHadoopKey, "hadoop or mit, for kerberos.name.rules"},
    {"hadoop.http.authentication.kerberos.endpoint.whitelist",
     kHonoured,
     kRm,
     kText,
     "",
     {nullptr, nullptr, ""},
     "web paths (/jmx, /isActive, ...) served without SPNEGO, as anonymous (Hadoop 3.3's key)"},
    {"hadoop.http.authentication.token.validity", kHonoured, kRm, kInt, "36000", All("36000"),
     "seconds a hadoop.auth cookie stays valid (and how often a random signing secret rolls)"},
    {"hadoop.http.authentication.token.max-inactive-interval", kHonoured, kRm, kInt, "-1",
     kNoHadoopKey, "seconds a session hadoop.auth cookie may go unused (-1: no limit)"},
    {"hadoop.http.authentication.signer.secret.provider", kHonoured, kRm, kText, "file",
     kNoHadoopKey, "what signs hadoop.auth cookies: file (signature.secret.file) or random",
     "file|random", kBlocker, true,
     "spindle rm refuses to start: the zookeeper provider and provider classes are not "
     "implemented"},
    {"hadoop.http.authentication.signature.secret.file", kHonoured, kRm, kText,
     "${user.home}/hadoop-http-auth-signature-secret",
     All("${user.home}/hadoop-http-auth-signature-secret"),
     "the secret that signs hadoop.auth cookies (unreadable: a random secret, as Hadoop falls "
     "back)"},
    {"hadoop.http.authentication.cookie.domain", kHonoured, kRm, kText, "", All(""),
     "the Domain of the hadoop.auth cookie"},
    {"hadoop.http.authentication.cookie.path", kHonoured, kRm, kText, "/", kNoHadoopKey,
     "the Path of the hadoop.auth cookie (AuthenticationFilterInitializer sets /)"},
    {"hadoop.http.authentication.cookie.persistent", kHonoured, kRm, kBool, "false", kNoHadoopKey,
     "true: the hadoop.auth cookie carries Expires"},
    {"hadoop.http.authentication.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey,
     "other web authentication properties (signature.secret, zookeeper secrets, ...) are not "
     "read",
     nullptr, kNote},
    {"hadoop.http.filter.initializers", kHonoured, kRm, kText,
     "org.apache.hadoop.http.lib.StaticUserWebFilter",
     All("org.apache.hadoop.http.lib.StaticUserWebFilter"),
     "the web's filters, as Hadoop's RM sets them up: AuthenticationFilterInitializer, "
     "RMAuthenticationFilterInitializer (simple or SPNEGO authentication, the hadoop.auth "
     "cookie) and StaticUserWebFilter (hadoop.http.staticuser.user for anonymous requests)",
     "*StaticUserWebFilter|*AuthenticationFilterInitializer|*RMAuthenticationFilterInitializer",
     kBlocker, true,
     "spindle rm refuses to start on any other filter initializer (CORS, proxy-user, custom "
     "filters)"},
    {"yarn.resourcemanager.webapp.ui-actions.enabled",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "true"},
     "Spindle's web UI has no actions (kill, move) to enable",
     nullptr,
     kNote},
    {"yarn.acl.reservation-enable",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     kNoReservations,
     nullptr,
     kNote},
    {"hadoop.caller.context.enabled",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "caller contexts are not logged",
     nullptr,
     kNote},
    {"hadoop.security.key.provider.path",
     kNotForRm,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, ""},
     "read by HDFS clients (encryption zones)"},
    {"hadoop.security.crypto.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by HDFS clients (encryption zones)"},
    {"hadoop.rpc.socket.factory.class.default", kNotForRm, kNone, kText, nullptr,
     All("org.apache.hadoop.net.StandardSocketFactory"), "client-side Hadoop RPC"},
    {"yarn.resourcemanager.webapp.https.address", kIgnored, kNone, kHostPort, nullptr,
     All("${yarn.resourcemanager.hostname}:8090"), "no HTTPS port is opened", nullptr, kNote},
    {"yarn.resourcemanager.webapp.cross-origin.enabled",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, "false", "false"},
     "no CORS headers are sent",
     "false",
     kWarning},
    {"yarn.webapp.ui2.enable",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "the new web UI (ui2) is not served",
     "false",
     kWarning},
    {"yarn.resourcemanager.webapp.delegation-token-auth-filter.enabled", kHonoured, kRm, kBool,
     "true", All("true"),
     "with Kerberos, AuthenticationFilterInitializer becomes the RM's own filter (cookie type "
     "kerberos-dt, ?doAs=); delegation tokens on the web are not taken yet"},
    // ---- the scheduler ----
    {"yarn.resourcemanager.scheduler.class", kHonoured, kNone, kText, kCapacityScheduler,
     All(kCapacityScheduler), "Spindle schedules the queues of capacity-scheduler.xml",
     "*.capacity.CapacityScheduler", kBlocker, false,
     "Spindle implements only the CapacityScheduler: the Fair or FIFO scheduler and its "
     "allocation file are not read; Spindle schedules the queues of capacity-scheduler.xml"},
    {"yarn.scheduler.fair.*", kUnsupported, kNone, kText, nullptr, kNoHadoopKey,
     "a FairScheduler setting", nullptr, kWarning, false,
     "Spindle implements only the CapacityScheduler: FairScheduler settings have no effect"},
    {"yarn.scheduler.capacity.maximum-applications", kHonoured, kRm, kInt, "10000", All("10000"),
     "applications pending or running in the cluster at most"},
    {"yarn.scheduler.capacity.maximum-am-resource-percent", kHonoured, kRm, kDouble, "0.1",
     All("0.1"), "share of a queue's resources AMs may hold (default of every queue)"},
    {"yarn.scheduler.capacity.global-queue-max-application",
     kHonoured,
     kRm,
     kInt,
     "(unset: no limit)",
     {nullptr, nullptr, "(unset: no limit)"},
     "maximum applications of every queue that sets none"},
    {"yarn.scheduler.capacity.user-metrics.enable", kHonoured, kRm, kBool, "false", All("false"),
     "per-user QueueMetrics beans in /jmx and /metrics "
     "(Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,...,user=<user>)"},
    {"yarn.scheduler.capacity.user-limit-factor", kHonoured, kRm, kDouble, "1", kNoHadoopKey,
     "(Spindle) the user-limit-factor of every queue that sets none"},
    {"yarn.scheduler.capacity.resource-calculator", kHonoured, kRm, kText,
     "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator",
     All("org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator"),
     "how an AM's asks are normalised (SchedulerUtils.normalizeRequest): "
     "DefaultResourceCalculator rounds memory up to a multiple of the minimum allocation and "
     "gives every container 1 vcore; DominantResourceCalculator rounds memory and vcores. The "
     "pool still places a container only where its vcores fit too (Hadoop's "
     "DefaultResourceCalculator would not count them, so a node with free memory and no free "
     "vcores takes no more containers in Spindle)",
     "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator|"
     "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
     kBlocker, true,
     "spindle rm refuses to start: only Hadoop's two calculators are known (a custom class is "
     "not loaded)"},
    {"yarn.scheduler.capacity.node-locality-delay",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {"-1", "-1", "40"},
     "Spindle does not delay-schedule: locality comes from the placement strategy's slot score, "
     "not from missed scheduling opportunities"},
    {"yarn.scheduler.capacity.rack-locality-additional-delay",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "-1"},
     "Spindle does not delay-schedule",
     nullptr,
     kNote},
    {"yarn.scheduler.capacity.queue-mappings", kUnsupported, kNone, kText, nullptr, All(""),
     "Spindle applies no queue mappings", "", kWarning, false,
     "queue mappings (u:user:queue, g:group:queue) are not applied: an application runs in the "
     "queue its submitter names"},
    {"yarn.scheduler.capacity.queue-mappings-override.enable", kIgnored, kNone, kBool, nullptr,
     All("false"), "queue mappings are not applied", nullptr, kNote},
    {"yarn.scheduler.capacity.schedule-asynchronously.enable", kIgnored, kNone, kBool, nullptr,
     All("false"), "Spindle's schedulers always run apart from node heartbeats", nullptr, kNote},
    {"yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "true"},
     kNoHeartbeatScheduling,
     nullptr,
     kNote},
    {"yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "100"},
     kNoHeartbeatScheduling,
     nullptr,
     kNote},
    {"yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "1"},
     kNoHeartbeatScheduling,
     nullptr,
     kNote},
    {"yarn.scheduler.capacity.application.fail-fast",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.scheduler.capacity.workflow-priority-mappings",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, ""},
     "workflow priority mappings are not applied",
     "",
     kWarning},
    {"yarn.scheduler.capacity.workflow-priority-mappings-override.enable",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     kRmSideOnly,
     nullptr,
     kNote},
    // Per queue (<queue-path> is root, root.a, root.a.b ...).
    {"yarn.scheduler.capacity.<queue-path>.queues", kHonoured, kRm, kText, "", All(""),
     "the queue's children (none: a leaf)"},
    {"yarn.scheduler.capacity.<queue-path>.capacity",
     kHonoured,
     kRm,
     kDouble,
     "0",
     {"(required)", "(required)", "0"},
     "percent of the parent's capacity (absolute [memory=...] and weight forms are refused)"},
    {"yarn.scheduler.capacity.<queue-path>.maximum-capacity", kHonoured, kRm, kDouble, "100",
     All("100"), "percent of the parent's capacity the queue may grow to (-1: 100)"},
    {"yarn.scheduler.capacity.<queue-path>.state", kHonoured, kRm, kText, "RUNNING", All("RUNNING"),
     "a STOPPED queue accepts no applications", "RUNNING|STOPPED", kBlocker, true,
     "not RUNNING or STOPPED: spindle rm refuses to start"},
    {"yarn.scheduler.capacity.<queue-path>.acl_submit_applications", kHonoured, kRm, kText,
     "* on root, ' ' below", All("* on root, ' ' below"),
     "who may submit (a parent's ACL also grants)"},
    {"yarn.scheduler.capacity.<queue-path>.acl_administer_queue", kHonoured, kRm, kText,
     "* on root, ' ' below", All("* on root, ' ' below"),
     "who may administer the queue and its applications (a parent's ACL also grants)"},
    {"yarn.scheduler.capacity.<queue-path>.user-limit-factor", kHonoured, kRm, kDouble, "1",
     All("1"), "how many times its capacity one user may take"},
    {"yarn.scheduler.capacity.<queue-path>.minimum-user-limit-percent", kHonoured, kRm, kInt, "100",
     All("100"), "the smallest share of the queue a user is guaranteed"},
    {"yarn.scheduler.capacity.<queue-path>.maximum-applications", kHonoured, kRm, kInt,
     "(cluster maximum x capacity)", All("(cluster maximum x capacity)"),
     "applications pending or running in the queue at most"},
    {"yarn.scheduler.capacity.<queue-path>.maximum-am-resource-percent", kHonoured, kRm, kDouble,
     "(yarn.scheduler.capacity.maximum-am-resource-percent)",
     All("(yarn.scheduler.capacity.maximum-am-resource-percent)"),
     "share of the queue's resources AMs may hold"},
    {"yarn.scheduler.capacity.<queue-path>.ordering-policy",
     kHonoured,
     kRm,
     kText,
     "fifo",
     {nullptr, nullptr, "fifo"},
     "order of the applications of a leaf queue",
     "fifo|fair|fifo-with-partitions|fifo-for-pending-apps|*.FifoOrderingPolicy|"
     "*.FairOrderingPolicy|*.FifoOrderingPolicyWithExclusivePartitions|"
     "*.FifoOrderingPolicyForPendingApps",
     kBlocker,
     true,
     "not an ordering policy Spindle has (fifo, fifo-with-partitions, fair): spindle rm refuses "
     "to start"},
    {"yarn.scheduler.capacity.<queue-path>.ordering-policy.fair.enable-size-based-weight",
     kHonoured,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "fair ordering divides an application's memory by log2(1 + its demand)"},
    {"yarn.scheduler.capacity.<queue-path>.user-settings.<user>.weight",
     kHonoured,
     kRm,
     kDouble,
     "1",
     {nullptr, nullptr, "1"},
     "the user's limit in the queue is the queue's times this weight; active users' weights "
     "sum to the fair part's divisor"},
    {"yarn.scheduler.capacity.<queue-path>.accessible-node-labels",
     kHonoured,
     kRm,
     kText,
     "* on root, the parent's below",
     {"* on root, the parent's below", "* on root, the parent's below",
      "* on root, the parent's below"},
     "shown in queue reports; a label a queue names cannot be removed from the cluster"},
    {"yarn.scheduler.capacity.<queue-path>.accessible-node-labels.<label>.capacity",
     kHonoured,
     kRm,
     kDouble,
     "0",
     {"0", "0", "0"},
     "the queue's guaranteed share of the label's partition (children of a parent sum to 100 per "
     "label, as each line checks; rm/queues/label_capacities)"},
    {"yarn.scheduler.capacity.<queue-path>.accessible-node-labels.<label>.maximum-capacity",
     kHonoured,
     kRm,
     kDouble,
     "100",
     {"100", "100", "100"},
     "the most of the label's partition the queue may use"},
    {"yarn.scheduler.capacity.<queue-path>.default-node-label-expression", kHonoured, kRm, kText,
     "the parent's (root: empty)", All(""),
     "the partition of the AM containers of the queue's apps that name none (checked against "
     "accessible-node-labels and the cluster's labels, as SchedulerUtils does); the AM's own "
     "allocate asks are not labelled yet"},
    {"yarn.scheduler.capacity.<queue-path>.reservable", kIgnored, kNone, kBool, nullptr,
     All("false"), kNoReservations, "false", kWarning},
    {"yarn.scheduler.capacity.<queue-path>.show-reservations-as-queues", kIgnored, kNone, kBool,
     nullptr, All("false"), kNoReservations, "false", kNote},
    {"yarn.scheduler.capacity.<queue-path>.priority",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "0"},
     "queue priorities between siblings are not applied",
     "0",
     kWarning},
    {"yarn.scheduler.capacity.<queue-path>.maximum-allocation-mb",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, "-1", "-1"},
     "per-queue maximum allocations are not applied: yarn.scheduler.maximum-allocation-* bounds "
     "every queue's asks"},
    {"yarn.scheduler.capacity.<queue-path>.maximum-allocation-vcores",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, "-1", "-1"},
     "per-queue maximum allocations are not applied: yarn.scheduler.maximum-allocation-* bounds "
     "every queue's asks"},
    {"yarn.scheduler.capacity.<queue-path>.disable_preemption",
     kHonoured,
     kRm,
     kBool,
     "false",
     {nullptr, "false", "false"},
     "the preemption monitor takes nothing from this queue (inherited by its children)"},
    {"yarn.scheduler.capacity.<queue-path>.acl_application_max_priority",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, "*"},
     "per-queue priority ACLs are not applied",
     "*",
     kWarning},
    {"yarn.scheduler.capacity.<queue-path>.default-application-priority",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "0"},
     "applications that name no priority get 0 in every queue",
     "0",
     kWarning},
    {"yarn.scheduler.capacity.<queue-path>.maximum-application-lifetime",
     kHonoured,
     kRm,
     kInt,
     "-1",
     {nullptr, nullptr, "-1"},
     "longest lifetime, in seconds from submission, of the queue's applications (child queues "
     "inherit it; 0 or less: none)"},
    {"yarn.scheduler.capacity.<queue-path>.default-application-lifetime",
     kHonoured,
     kRm,
     kInt,
     "-1",
     {nullptr, nullptr, "-1"},
     "lifetime, in seconds, of the queue's applications that ask for none (child queues inherit "
     "it; unset: the queue's maximum)"},
    {"yarn.scheduler.capacity.<queue-path>.auto-create-child-queue.enabled",
     kUnsupported,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "Spindle creates no queues on submission",
     "false",
     kWarning,
     false,
     "queues are not created on submission: an application to an unknown queue is refused"},
    // ---- features Spindle lacks ----
    {"yarn.resourcemanager.ha.enabled", kHonoured, kRm, kBool, "false", All("false"),
     "HA, as Hadoop's RM: the configuration checked as HAUtil checks it (rm-ids, this RM's id, "
     "per-id addresses, cluster-id), this RM binds its own rm-id's addresses and starts standby "
     "(every RPC port answers StandbyException); the embedded elector (automatic failover, "
     "the default) makes one RM of the pair active through ZooKeeper as ActiveStandbyElector "
     "does, so a Java RM of the same cluster-id takes part in the same election"},
    {"yarn.resourcemanager.ha.rm-ids", kHonoured, kRm, kText, "", All(nullptr),
     "the RMs of the HA pair (at least two, as Hadoop requires)"},
    {"yarn.resourcemanager.ha.id", kHonoured, kRm, kText, "", All(nullptr),
     "this RM's id; unset: the one rm-id whose yarn.resourcemanager.address.<rm-id> is an "
     "address of this machine"},
    {"yarn.resourcemanager.ha.automatic-failover.enabled", kHonoured, kRm, kBool, "true",
     All("true"), "automatic failover by the RM's embedded elector"},
    {"yarn.resourcemanager.ha.automatic-failover.embedded", kHonoured, kRm, kBool, "true",
     All("true"), "the elector runs inside the RM (ActiveStandbyElector's znodes)"},
    {"yarn.resourcemanager.ha.curator-leader-elector.enabled",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "Spindle elects as ActiveStandbyElector does",
     "false",
     kBlocker,
     true,
     "the Curator leader latch is not implemented: spindle rm refuses to start"},
    {"yarn.resourcemanager.ha.automatic-failover.zk-base-path", kHonoured, kRm, kText,
     "/yarn-leader-election", All("/yarn-leader-election"),
     "the elector's znodes are under <it>/<cluster-id>"},
    {"ha.failover-controller.cli-check.rpc-timeout.ms", kHonoured, kRm, kInt, "20000", All("20000"),
     "how long a standby waits for each other RM's getServiceStatus when it looks for the active "
     "RM to redirect web requests to"},
    {"yarn.resourcemanager.ha.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey, kNoHa, nullptr,
     kNote},
    {"yarn.resourcemanager.cluster-id", kHonoured, kRm, kText, "", All(nullptr),
     "the HA pair's name (the elector's znode); required with the embedded elector"},
    {"yarn.resourcemanager.hostname.<rm-id>", kHonoured, kRm, kText, "", kNoHadoopKey,
     "an RM's host: its service addresses default to it with the default ports"},
    {"yarn.resourcemanager.address.<rm-id>", kHonoured, kRm, kHostPort, "", kNoHadoopKey,
     "the rm-id's client address (also how an RM finds its own id)"},
    {"yarn.resourcemanager.scheduler.address.<rm-id>", kHonoured, kRm, kHostPort, "", kNoHadoopKey,
     "the rm-id's scheduler address"},
    {"yarn.resourcemanager.resource-tracker.address.<rm-id>", kHonoured, kRm, kHostPort, "",
     kNoHadoopKey, "the rm-id's resource tracker address"},
    {"yarn.resourcemanager.admin.address.<rm-id>", kHonoured, kRm, kHostPort, "", kNoHadoopKey,
     "the rm-id's admin address"},
    {"yarn.resourcemanager.webapp.address.<rm-id>", kHonoured, kRm, kHostPort, "", kNoHadoopKey,
     "the rm-id's web address"},
    {"yarn.resourcemanager.webapp.https.address.<rm-id>", kIgnored, kNone, kHostPort, nullptr,
     kNoHadoopKey, "no HTTPS port is opened", nullptr, kNote},
    {"yarn.resourcemanager.zk-address",
     kHonoured,
     kRm,
     kText,
     "",
     {"", "", nullptr},
     "the ZooKeeper quorum of the ZKRMStateStore store and the embedded elector (3.3: the "
     "deprecated name of hadoop.zk.address, read when that is unset); required with either"},
    {"yarn.resourcemanager.zk-state-store.parent-path", kHonoured, kRm, kText, "/rmstore",
     All("/rmstore"),
     "znode under which the ZooKeeper store keeps ZKRMStateRoot (Hadoop's tree) and SpindleRoot "
     "(Spindle's extra records)"},
    {"yarn.resourcemanager.zk-state-store.root-node.acl", kHonoured, kRm, kText, "", All(""),
     "with HA on, the ACL the ZooKeeper store puts on ZKRMStateRoot instead of Hadoop's default "
     "fencing ACL ('@file' allowed)"},
    {"yarn.resourcemanager.zk-timeout-ms",
     kHonoured,
     kRm,
     kInt,
     "10000",
     {"10000", "10000", nullptr},
     "ZooKeeper session timeout of the state store and the elector: how long a dead active "
     "holds the lock (3.3: hadoop.zk.timeout-ms wins)"},
    {"yarn.resourcemanager.zk-acl",
     kHonoured,
     kRm,
     kText,
     "world:anyone:rwcda",
     {"world:anyone:rwcda", "world:anyone:rwcda", nullptr},
     "ACL of the ZooKeeper store's znodes, '@file' allowed (3.3: hadoop.zk.acl wins)"},
    {"yarn.resourcemanager.zk-auth",
     kHonoured,
     kRm,
     kText,
     "",
     {"", "", nullptr},
     "authentications the ZooKeeper store adds, '@file' allowed (3.3: hadoop.zk.auth wins)"},
    {"ha.failover-controller.active-standby-elector.zk.op.retries", kHonoured, kRm, kInt, "3",
     All("3"), "attempts of an elector's ZooKeeper call that lost its connection"},
    {"yarn.resourcemanager.ha.failover-controller.active-standby-elector.zk.retries",
     kHonoured,
     kRm,
     kInt,
     "",
     {nullptr, nullptr, nullptr},
     "3.3: the same for the RM's elector, in place of "
     "ha.failover-controller.active-standby-elector.zk.op.retries"},
    {"yarn.resourcemanager.zk-num-retries",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {"1000", "1000", nullptr},
     "tries of a ZooKeeper store operation that lost its connection (3.3: hadoop.zk.num-retries "
     "wins)"},
    {"yarn.resourcemanager.zk-retry-interval-ms",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {"1000", "1000", nullptr},
     "pause between those tries; 2.x with HA uses zk-timeout-ms / zk-num-retries (3.3: "
     "hadoop.zk.retry-interval-ms wins)"},
    {"yarn.resourcemanager.zk-appid-node.split-index",
     kHonoured,
     kRm,
     kInt,
     "0",
     {nullptr, nullptr, "0"},
     "3.3: the ZooKeeper store writes new applications under RMAppRoot/HIERARCHIES/<n> (every "
     "layout is read)"},
    {"yarn.resourcemanager.zk-delegation-token-node.split-index",
     kHonoured,
     kRm,
     kInt,
     "0",
     {nullptr, nullptr, "0"},
     "3.3: the same for RM delegation tokens under RMDelegationTokensRoot/<n>"},
    {"hadoop.zk.address",
     kHonoured,
     kRm,
     kText,
     "",
     {nullptr, nullptr, ""},
     "3.3: the ZooKeeper quorum of the ZKRMStateStore store"},
    {"hadoop.zk.timeout-ms",
     kHonoured,
     kRm,
     kInt,
     "10000",
     {nullptr, nullptr, "10000"},
     "3.3: ZooKeeper session timeout of the state store"},
    {"hadoop.zk.num-retries",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {nullptr, nullptr, "1000"},
     "3.3: tries of a ZooKeeper store operation that lost its connection"},
    {"hadoop.zk.retry-interval-ms",
     kHonoured,
     kRm,
     kInt,
     "1000",
     {nullptr, nullptr, "1000"},
     "3.3: pause between those tries"},
    {"hadoop.zk.acl",
     kHonoured,
     kRm,
     kText,
     "world:anyone:rwcda",
     {nullptr, nullptr, "world:anyone:rwcda"},
     "3.3: ACL of the ZooKeeper store's znodes"},
    {"hadoop.zk.auth",
     kHonoured,
     kRm,
     kText,
     "",
     {nullptr, nullptr, ""},
     "3.3: authentications the ZooKeeper store adds"},
    {"hadoop.zk.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey, kNoZooKeeper, nullptr, kNote},
    {"yarn.resourcemanager.configuration.provider-class", kIgnored, kNone, kText, nullptr,
     All("org.apache.hadoop.yarn.LocalConfigurationProvider"),
     "Spindle reads the configuration of its --conf directory", "*LocalConfigurationProvider",
     kWarning, false,
     "Spindle reads only its --conf directory: a configuration kept in a file system "
     "(FileSystemBasedConfigurationProvider) is not read"},
    {"yarn.node-labels.enabled",
     kHonoured,
     kRm,
     kBool,
     "false",
     {nullptr, "false", "false"},
     "cluster node labels (rmadmin -addToClusterNodeLabels / -replaceLabelsOnNode) are accepted, "
     "kept in the state store and applied as pool partitions; off, they are refused with "
     "Hadoop's message (2.6 has no switch: always on)"},
    {"yarn.node-labels.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey, kNoLabels, nullptr,
     kNote},
    {"yarn.resourcemanager.reservation-system.enable", kUnsupported, kNone, kBool, nullptr,
     All("false"), "Spindle has no reservation system", "false", kWarning, false,
     "the reservation system is not implemented: reservation requests "
     "(submitReservation and friends) fail"},
    {"yarn.resourcemanager.reservation-system.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey,
     kNoReservations, nullptr, kNote},
    {"yarn.resourcemanager.scheduler.monitor.enable", kHonoured, kRm, kBool, "false", All("false"),
     "runs the preemption monitor (ProportionalCapacityPreemptionPolicy)"},
    {"yarn.resourcemanager.scheduler.monitor.policies", kHonoured, kRm, kText,
     "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
     "ProportionalCapacityPreemptionPolicy",
     All("org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
         "ProportionalCapacityPreemptionPolicy"),
     "the monitor policies; only ProportionalCapacityPreemptionPolicy is accepted"},
    {"yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", kHonoured, kRm, kInt,
     "3000", All("3000"), "ms between two runs of the preemption policy"},
    {"yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", kHonoured, kRm, kInt,
     "15000", All("15000"), "ms from asking a container back to killing it"},
    {"yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", kHonoured, kRm,
     kDouble, "0.1", All("0.1"), "the most of the cluster one run asks back"},
    {"yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity", kHonoured, kRm,
     kDouble, "0.1", All("0.1"),
     "how far over its guarantee a queue may be before it is preempted"},
    {"yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", kHonoured, kRm,
     kDouble, "0.2", All("0.2"), "the share of a queue's excess asked back per run"},
    {"yarn.resourcemanager.monitor.capacity.preemption.observe_only", kHonoured, kRm, kBool,
     "false", All("false"), "run the preemption policy without marking or killing"},
    {"yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "intra-queue preemption is not implemented",
     "false",
     kBlocker,
     true,
     "spindle rm refuses to start: intra-queue preemption is not implemented"},
    {"yarn.resourcemanager.monitor.capacity.preemption.preemption-to-balance-queue-after-satisfied."
     "enabled",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "preemption to balance queues beyond their guarantee is not implemented",
     "false",
     kBlocker,
     true,
     "spindle rm refuses to start: preemption to balance queues beyond their guarantee is not "
     "implemented"},
    {"yarn.resourcemanager.monitor.capacity.preemption.select_based_on_reserved_containers",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "reserved-container preemption is not implemented",
     "false",
     kBlocker,
     true,
     "spindle rm refuses to start: reserved-container preemption is not implemented"},
    {"yarn.resourcemanager.monitor.capacity.preemption.additional_res_balance_based_on_reserved_"
     "containers",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "reserved-container preemption is not implemented",
     "false",
     kBlocker,
     true,
     "spindle rm refuses to start: reserved-container preemption is not implemented"},
    {"yarn.scheduler.capacity.lazy-preemption-enabled",
     kUnsupported,
     kRm,
     kBool,
     "false",
     {nullptr, nullptr, "false"},
     "lazy preemption is not implemented",
     "false",
     kBlocker,
     true,
     "spindle rm refuses to start: lazy preemption is not implemented"},
    {"yarn.resourcemanager.system-metrics-publisher.enabled", kUnsupported, kNone, kBool, nullptr,
     All("false"), "Spindle publishes nothing to the timeline service", "false", kWarning, false,
     "Spindle publishes no application or container events to the timeline service: its history "
     "does not show applications run on Spindle"},
    {"yarn.system-metrics-publisher.enabled",
     kUnsupported,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "publishing to the timeline service",
     "false",
     kWarning,
     false,
     "Spindle publishes no application or container events to the timeline service: its history "
     "does not show applications run on Spindle"},
    {"yarn.federation.enabled",
     kUnsupported,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "Spindle is not federated",
     "false",
     kBlocker,
     false,
     "YARN federation (AMRMProxy, the state store of sub-clusters) is not implemented"},
    {"yarn.resourcemanager.placement-constraints.handler",
     kUnsupported,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, "disabled"},
     "Spindle has no placement constraints",
     "disabled",
     kWarning,
     false,
     "placement constraints (scheduling requests) are not implemented"},
    {"yarn.resourcemanager.resource-profiles.enabled",
     kUnsupported,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "Spindle has no resource profiles",
     "false",
     kWarning,
     false,
     "resource profiles are not implemented"},
    {"yarn.resourcemanager.opportunistic-container-allocation.enabled",
     kUnsupported,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "Spindle allocates no opportunistic containers",
     "false",
     kWarning,
     false,
     "opportunistic containers are not allocated"},
    {"yarn.resourcemanager.nodemanager.minimum.version", kIgnored, kNone, kText, nullptr,
     All("NONE"), "NodeManagers of every version may register", "NONE", kWarning, false,
     "NodeManagers of every version may register: the version floor is not checked"},
    {"yarn.resourcemanager.proxy-user-privileges.enabled", kUnsupported, kNone, kBool, nullptr,
     All("false"), "the RM obtains no delegation tokens for applications", "false", kWarning, false,
     "the RM obtains no delegation tokens on behalf of applications"},
    {"yarn.resourcemanager.amlauncher.thread-count",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, "50", "50"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.delegation-token-renewer.thread-count",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "50"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.container.liveness-monitor.interval-ms", kIgnored, kNone, kInt, nullptr,
     All("600000"), kRmSideOnly, nullptr, kNote},
    {"yarn.resourcemanager.application-timeouts.monitor.interval-ms",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "3000"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.decommissioning-nodes-watcher.poll-interval-secs",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "20"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.node-removal-untracked.timeout-ms",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "60000"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.nodemanager-connect-retries",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, "10", "10"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.max-log-aggregation-diagnostics-in-memory",
     kIgnored,
     kNone,
     kInt,
     nullptr,
     {nullptr, nullptr, "10"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.resourcemanager.metrics.runtime.buckets",
     kIgnored,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, "60,300,1440"},
     kRmSideOnly,
     nullptr,
     kNote},
    {"yarn.scheduler.include-port-in-node-name",
     kIgnored,
     kNone,
     kBool,
     nullptr,
     {nullptr, nullptr, "false"},
     "Spindle names nodes host:port",
     nullptr,
     kNote},
    {"yarn.resourcemanager.fail-fast",
     kHonoured,
     kRm,
     kBool,
     "${yarn.fail-fast}",
     {nullptr, "${yarn.fail-fast}", "${yarn.fail-fast}"},
     "when the state store fails a write: true, the RM logs FATAL and exits with 1; false, it "
     "refuses writes (submissions fail) until the store accepts them again, serving reads "
     "meanwhile; on the 2.6 line, which has no such key, the RM always exits"},
    {"yarn.fail-fast",
     kHonoured,
     kRm,
     kBool,
     "false",
     {nullptr, "false", "false"},
     "the default of yarn.resourcemanager.fail-fast"},
    {"hadoop.registry.*", kIgnored, kNone, kText, nullptr, kNoHadoopKey,
     "the YARN service registry is not implemented", nullptr, kNote},
    // ---- spindle.* ----
    {"spindle.compat.hadoop-version", kHonoured, kRm | kNm, kText, "3.3", kNoHadoopKey,
     "the Hadoop line (2.6, 2.7, 3.3) Spindle stands in for: the defaults that differ between "
     "lines, the allocate responseId tolerance, the version reported to clients and "
     "NodeManagers (rm/config/HADOOP_LINES.md); also what spindle doctor compares with",
     "2.6|2.7|3.3", kBlocker, true, "spindle rm and spindle nm refuse to start on any other value"},
    {"spindle.store.path", kHonoured, kRm, kText,
     "${yarn.resourcemanager.leveldb-state-store.path}", kNoHadoopKey,
     "directory of the embedded RocksDB state store"},
    {"spindle.store.sync-writes", kHonoured, kRm, kBool, "true", kNoHadoopKey,
     "every store write is synced to disk before the RM answers"},
    {"spindle.scheduler.count", kHonoured, kRm, kInt, "20", kNoHadoopKey,
     "number of ParSync schedulers N (1..1024)"},
    {"spindle.scheduler.partitions", kHonoured, kRm, kInt, "20", kNoHadoopKey,
     "partitions P of the cell state (>= N for parsync and samesync)"},
    {"spindle.scheduler.sync-gap-ms", kHonoured, kRm, kInt, "500", kNoHadoopKey,
     "G: every partition of every scheduler's view is refreshed within it"},
    {"spindle.scheduler.mode", kHonoured, kRm, kText, "parsync", kNoHadoopKey,
     "parsync | samesync | statesync | monolithic"},
    {"spindle.scheduler.strategy", kHonoured, kRm, kText, "latency-first", kNoHadoopKey,
     "latency-first | quality-first | adaptive"},
    {"spindle.scheduler.adaptive.tau-ms", kHonoured, kRm, kInt, "2000", kNoHadoopKey,
     "adaptive's scheduling-delay threshold tau"},
    {"spindle.scheduler.adaptive.ema-alpha", kHonoured, kRm, kDouble, "0.05", kNoHadoopKey,
     "weight of each new delay in adaptive's moving average, in (0, 1]"},
    {"spindle.scheduler.transaction", kHonoured, kRm, kText, "incremental", kNoHadoopKey,
     "incremental | all-or-nothing (gang) commits"},
    {"spindle.scheduler.conflict-detection", kHonoured, kRm, kText, "fine-grained", kNoHadoopKey,
     "fine-grained (the resource still fits) | coarse-grained (the node is unchanged)"},
    {"spindle.scheduler.max-tasks-per-step", kHonoured, kRm, kInt, "256", kNoHadoopKey,
     "tasks one scheduler places before it commits"},
    {"spindle.scheduler.max-retries", kHonoured, kRm, kInt, "2", kNoHadoopKey,
     "rounds of re-placing conflicted tasks within one step"},
    {"spindle.scheduler.pinning", kHonoured, kRm, kText, "hash", kNoHadoopKey,
     "hash | queue-groups: which scheduler serves an application"},
    {"spindle.scheduler.queue-group.<queue>", kHonoured, kRm, kText, "", kNoHadoopKey,
     "the schedulers (first-last) that serve the queue under queue-groups pinning"},
    {"spindle.scheduler.min-unit.memory-mb", kHonoured, kRm, kInt, "1024", kNoHadoopKey,
     "the smallest container, for sampling free nodes"},
    {"spindle.scheduler.min-unit.vcores", kHonoured, kRm, kInt, "1", kNoHadoopKey,
     "the smallest container, for sampling free nodes"},
    {"spindle.scheduler.resource-types", kHonoured, kRm, kText, "", kNoHadoopKey,
     "extended resource types after memory-mb and vcores (at most 4)"},
    {"spindle.scheduler.change-log-entries", kHonoured, kRm, kInt, "8192", kNoHadoopKey,
     "per-partition change log for delta syncs"},
    {"spindle.scheduler.metrics.series-seconds", kHonoured, kRm, kInt, "600", kNoHadoopKey,
     "seconds of per-second metrics kept"},
    {"spindle.scheduler.seed", kHonoured, kRm, kInt, "1", kNoHadoopKey,
     "seed of the schedulers' random choices"},
    {"spindle.scheduler.remote.address", kHonoured, kRm, kText, "", kNoHadoopKey,
     "HOST:PORT of the cell-state service the active RM serves to `spindle scheduler --rm` "
     "processes (Thrift; port 0: picked at start, logged and in --ports-file as cell-state); "
     "unset: no remote schedulers"},
    {"spindle.scheduler.remote.count", kHonoured, kRm, kInt, "1", kNoHadoopKey,
     "R remote scheduler slots: the service's members place about R/(N+R) of the applications "
     "(needs spindle.scheduler.remote.address; 1 when that is set)"},
    {"spindle.scheduler.remote.lease-ms", kHonoured, kRm, kInt, "3000", kNoHadoopKey,
     "a remote scheduler that does not renew within it loses its applications to the others"},
    {"spindle.scheduler.*", kUnsupported, kNone, kText, nullptr, kNoHadoopKey,
     "not a key of the scheduler pool", nullptr, kBlocker, true,
     "not a key of the scheduler pool: spindle rm refuses to start (unknown configuration key)"},
    {"spindle.http.max-request-body-bytes", kHonoured, kRm, kInt, "1048576", kNoHadoopKey,
     "largest HTTP request body accepted"},
    {"spindle.http.max-queued-requests", kHonoured, kRm, kInt, "64", kNoHadoopKey,
     "HTTP requests waiting for a handler at most (more are answered 503)"},
    {"spindle.http.max-connections", kHonoured, kRm, kInt, "256", kNoHadoopKey,
     "open HTTP connections, a soft limit: a new one closes the connection that has waited "
     "longest for a whole request, and is refused only when every connection is busy with one"},
    {"spindle.http.max-connections-per-address", kHonoured, kRm, kInt, "64", kNoHadoopKey,
     "open HTTP connections per client address (0: no limit); a client at it displaces its own "
     "idle connections, never another's"},
    {"spindle.http.header-timeout-ms", kHonoured, kRm, kInt, "10000", kNoHadoopKey,
     "a connection must send a whole request header within this (from accept, or from the first "
     "byte of a keep-alive's next request); a silent one is closed, a slow one answered 408; a "
     "response unread this long no longer holds its connection's slot"},
    {"spindle.http.request-timeout-ms", kHonoured, kRm, kInt, "30000", kNoHadoopKey,
     "a request slower than this from first to last byte is answered 408"},
    {"spindle.http.handler-nice", kHonoured, kRm, kInt, "10", kNoHadoopKey,
     "nice value added to the web handler threads (0..19), so RPC handlers go first"},
    {"spindle.nm.heartbeat.initial-interval-ms", kHonoured, kNm, kInt, "1000", kNoHadoopKey,
     "spindle nm: heartbeat interval until the RM names one"},
    {"spindle.nm.rm-retry.max-interval-ms", kHonoured, kNm, kInt, "10000", kNoHadoopKey,
     "spindle nm: longest wait between attempts to reach the RM"},
    {"spindle.nm.simulate.default-duration-ms", kHonoured, kNm, kInt, "10000", kNoHadoopKey,
     "spindle nm --simulate: how long a container runs when its launch context names no duration"},
    {"spindle.ipc.server.max-connections-per-address", kHonoured, kRm, kInt, "0", kNoHadoopKey,
     "open connections one client IP address may hold on each RM RPC server (0 = no limit); one "
     "more is closed at accept as at ipc.server.max.connections. Off by default: Hadoop has no "
     "such limit, and NAT gateways, edge nodes running many clients and staging cells (every "
     "simulated node on 127.0.0.1) hold many connections from one address"},
    // ---- keys other daemons read (spindle nm reads some) ----
    {"yarn.nodemanager.hostname", kNotForRm, kNm, kText, "0.0.0.0", All("0.0.0.0"),
     kNodeManagerKey},
    {"yarn.nodemanager.address", kNotForRm, kNm, kHostPort, "${yarn.nodemanager.hostname}:0",
     All("${yarn.nodemanager.hostname}:0"), kNodeManagerKey},
    {"yarn.nodemanager.webapp.address", kNotForRm, kNm, kHostPort,
     "${yarn.nodemanager.hostname}:8042", All("${yarn.nodemanager.hostname}:8042"),
     kNodeManagerKey},
    {"yarn.nodemanager.resource.memory-mb",
     kNotForRm,
     kNm,
     kInt,
     "8192",
     {"8192", "8192", "-1"},
     kNodeManagerKey},
    {"yarn.nodemanager.resource.cpu-vcores",
     kNotForRm,
     kNm,
     kInt,
     "8",
     {"8", "8", "-1"},
     kNodeManagerKey},
    {"yarn.nodemanager.local-dirs", kNotForRm, kNm, kText, "${hadoop.tmp.dir}/nm-local-dir",
     All("${hadoop.tmp.dir}/nm-local-dir"), kNodeManagerKey},
    {"yarn.nodemanager.log-dirs", kNotForRm, kNm, kText, "${hadoop.tmp.dir}/nm-logs",
     All("${yarn.log.dir}/userlogs"), kNodeManagerKey},
    {"yarn.nodemanager.user-home-dir", kNotForRm, kNm, kText, "/home/", kNoHadoopKey,
     kNodeManagerKey},
    {"yarn.nodemanager.env-whitelist",
     kNotForRm,
     kNm,
     kText,
     "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,"
     "HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ",
     {"JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,HADOOP_YARN_HOME",
      "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,HADOOP_YARN_HOME",
      "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,"
      "HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ"},
     kNodeManagerKey},
    {"yarn.nodemanager.admin-env", kNotForRm, kNm, kText, "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX",
     All("MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX"), kNodeManagerKey},
    {"yarn.nodemanager.sleep-delay-before-sigkill.ms", kNotForRm, kNm, kInt, "250", All("250"),
     kNodeManagerKey},
    {"yarn.nodemanager.container-monitor.interval-ms",
     kNotForRm,
     kNm,
     kInt,
     "3000",
     {"3000", "3000", "3000"},
     kNodeManagerKey},
    {"yarn.nodemanager.pmem-check-enabled", kNotForRm, kNm, kBool, "true", All("true"),
     kNodeManagerKey},
    {"yarn.nodemanager.bind-host", kNotForRm, kNm, kText, "", All(""), kNodeManagerKey},
    {"yarn.nodemanager.log-container-debug-info.enabled",
     kNotForRm,
     kNm,
     kBool,
     "true",
     {nullptr, nullptr, "true"},
     kNodeManagerKey},
    {"yarn.nodemanager.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, kNodeManagerKey},
    {"yarn.resourcemanager.connect.max-wait.ms", kNotForRm, kReadByShell, kInt, "900000",
     All("900000"), "read by clients and NodeManagers to reach the RM"},
    {"yarn.resourcemanager.connect.retry-interval.ms", kNotForRm, kReadByShell, kInt, "30000",
     All("30000"), "read by clients and NodeManagers to reach the RM"},
    // The RM's AMLauncher reaches NodeManagers through NMProxy, which reads
    // these (and so does `spindle shell-am`, as NMClientAsync does).
    {"yarn.client.nodemanager-connect.max-wait-ms", kHonoured, kRm | kReadByShell, kInt, "180000",
     All("180000"), "how long the AM launcher retries a node it cannot reach (-1: forever)"},
    {"yarn.client.nodemanager-connect.retry-interval-ms", kHonoured, kRm | kReadByShell, kInt,
     "10000", All("10000"), "the AM launcher's wait between tries of a node it cannot reach"},
    // RMProxy's failover policy between rm-ids (am_protocol/rm_proxy), read
    // by spindle nm, spindle shell and its AM with HA on.
    {"yarn.client.failover-sleep-base-ms", kNotForRm, kNm | kReadByShell, kInt,
     "yarn.resourcemanager.connect.retry-interval.ms", kNoHadoopKey,
     "the first wait before trying the next RM after a failover (exponential backoff)"},
    {"yarn.client.failover-sleep-max-ms", kNotForRm, kNm | kReadByShell, kInt,
     "yarn.resourcemanager.connect.retry-interval.ms", kNoHadoopKey,
     "the longest wait between failovers"},
    {"yarn.client.failover-max-attempts", kNotForRm, kNm | kReadByShell, kInt,
     "max-wait.ms / retry-interval.ms", kNoHadoopKey, "failovers before a client gives up"},
    {"yarn.client.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, kClientKey},
    {"yarn.application.classpath", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, kClientKey},
    {"yarn.app.mapreduce.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by MapReduce clients and AMs"},
    {"mapreduce.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by MapReduce clients, AMs and tasks"},
    {"yarn.timeline-service.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by clients and the timeline server; Spindle publishes nothing to it (see "
     "yarn.system-metrics-publisher.enabled)"},
    {"yarn.log-aggregation.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by NodeManagers and the job history server"},
    {"yarn.log.server.url",
     kNotForRm,
     kNone,
     kText,
     nullptr,
     {nullptr, nullptr, ""},
     "read by NodeManagers (log links of finished containers), not by Spindle's RM"},
    {"yarn.web-proxy.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by the web proxy server"},
    {"yarn.sharedcache.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "read by the shared cache manager"},
    {"ipc.client.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, "client-side Hadoop RPC"},
    {"fs.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey,
     "file-system settings of clients and NodeManagers; Spindle's RM uses no Hadoop file system"},
    {"dfs.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, "HDFS settings"},
    {"io.*", kNotForRm, kNone, kText, nullptr, kNoHadoopKey, "I/O settings of clients and tasks"},
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> SplitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

bool IsPlaceholder(std::string_view part) {
  return part.size() > 2 && part.front() == '<' && part.back() == '>';
}

// Matches pattern parts [p..) against key parts [k..); records the names a
// <queue-path> took.
bool MatchParts(const std::vector<std::string_view>& pattern, size_t p,
                const std::vector<std::string_view>& key, size_t k,
                std::pair<size_t, size_t>* queue_span) {
  if (p == pattern.size()) return k == key.size();
  if (k == key.size()) return false;
  const std::string_view part = pattern[p];
  if (part == "*") return p + 1 == pattern.size();  // one or more names
  if (part == "<queue-path>") {
    if (key[k] != "root") return false;
    for (size_t end = k + 1; end <= key.size(); ++end) {
      if (MatchParts(pattern, p + 1, key, end, queue_span)) {
        *queue_span = {k, end};
        return true;
      }
    }
    return false;
  }
  if (IsPlaceholder(part)) {
    return !key[k].empty() && MatchParts(pattern, p + 1, key, k + 1, queue_span);
  }
  return part == key[k] && MatchParts(pattern, p + 1, key, k + 1, queue_span);
}

int LiteralParts(std::string_view pattern) {
  int n = 0;
  for (std::string_view part : SplitDots(pattern)) {
    if (part != "*" && !IsPlaceholder(part)) ++n;
  }
  return n;
}

bool IsPattern(std::string_view pattern) {
  return pattern.find('<') != std::string_view::npos || pattern.ends_with(".*");
}

}  // namespace

const char* KeyStatusName(KeyStatus status) {
  switch (status) {
    case KeyStatus::kHonoured:
      return "honoured";
    case KeyStatus::kHonouredOtherDefault:
      return "honoured, different default";
    case KeyStatus::kIgnored:
      return "ignored";
    case KeyStatus::kUnsupported:
      return "unsupported";
    case KeyStatus::kNotForRm:
      return "not read by a ResourceManager";
    case KeyStatus::kUnknown:
      return "unknown to Spindle: ignored";
  }
  return "?";
}

static_assert(kHadoopLineCount == 3 && static_cast<int>(HadoopLine::k2_6) == 0 &&
                  static_cast<int>(HadoopLine::k3_3) == kNewestHadoopLine,
              "the catalogue's line indexes are rm::HadoopLine's values");

std::optional<int> HadoopLineIndex(std::string_view version) {
  for (int i = 0; i < kHadoopLineCount; ++i) {
    const std::string_view line = kHadoopLineNames[static_cast<size_t>(i)];
    if (version == line || (version.size() > line.size() && version.starts_with(line) &&
                            version[line.size()] == '.')) {
      return i;
    }
  }
  return std::nullopt;
}

std::span<const KeySpec> KeyCatalog() { return kCatalog; }

bool KeyPatternMatches(std::string_view pattern, std::string_view key, std::string* queue_path) {
  if (!IsPattern(pattern)) {
    if (pattern != key) return false;
    if (queue_path != nullptr) queue_path->clear();
    return true;
  }
  const auto pattern_parts = SplitDots(pattern);
  const auto key_parts = SplitDots(key);
  std::pair<size_t, size_t> span{0, 0};
  if (!MatchParts(pattern_parts, 0, key_parts, 0, &span)) return false;
  if (queue_path != nullptr) {
    queue_path->clear();
    for (size_t i = span.first; i < span.second; ++i) {
      if (i > span.first) queue_path->push_back('.');
      queue_path->append(key_parts[i]);
    }
  }
  return true;
}

const KeySpec* FindKeySpec(std::string_view key, std::string* queue_path) {
  const KeySpec* best = nullptr;
  int best_literals = -1;
  for (const KeySpec& spec : kCatalog) {
    if (!IsPattern(spec.pattern)) {
      if (spec.pattern == key) {
        if (queue_path != nullptr) queue_path->clear();
        return &spec;
      }
      continue;
    }
    if (!KeyPatternMatches(spec.pattern, key)) continue;
    const int literals = LiteralParts(spec.pattern);
    if (literals > best_literals) {
      best = &spec;
      best_literals = literals;
    }
  }
  if (best != nullptr && queue_path != nullptr) KeyPatternMatches(best->pattern, key, queue_path);
  return best;
}

bool ValueMatches(const KeySpec& spec, std::string_view value) {
  if (spec.matching_values == nullptr) return true;
  const std::string lowered = Lower(value);
  std::string_view all = spec.matching_values;
  while (true) {
    const size_t bar = all.find('|');
    const std::string accepted = Lower(all.substr(0, bar));
    if (!accepted.empty() && accepted.front() == '*') {
      if (lowered.ends_with(std::string_view(accepted).substr(1))) return true;
    } else if (lowered == accepted) {
      return true;
    }
    if (bar == std::string_view::npos) return false;
    all = all.substr(bar + 1);
  }
}

const char* SpindleDefaultOn(const KeySpec& spec, int hadoop_line) {
  // Keys whose default Spindle takes from the configured line (the table of
  // rm/config/hadoop_line.cc, which Configuration reads under the files).
  if (spec.spindle_default != nullptr && hadoop_line >= 0 && hadoop_line < kHadoopLineCount) {
    if (auto shipped = HadoopDefault(static_cast<HadoopLine>(hadoop_line), spec.pattern)) {
      return shipped->value.data();
    }
  }
  return spec.spindle_default;
}

KeyStatus StatusOn(const KeySpec& spec, int hadoop_line) {
  return StatusOn(spec, hadoop_line, hadoop_line);
}

KeyStatus StatusOn(const KeySpec& spec, int hadoop_line, int spindle_line) {
  switch (spec.support) {
    case KeySupport::kHonoured: {
      const char* hadoop = spec.hadoop_default[static_cast<size_t>(hadoop_line)];
      const char* spindle = SpindleDefaultOn(spec, spindle_line);
      if (spindle != nullptr && hadoop != nullptr && std::string_view(spindle) != hadoop) {
        return KeyStatus::kHonouredOtherDefault;
      }
      return KeyStatus::kHonoured;
    }
    case KeySupport::kIgnored:
      return KeyStatus::kIgnored;
    case KeySupport::kUnsupported:
      return KeyStatus::kUnsupported;
    case KeySupport::kNotForRm:
      return KeyStatus::kNotForRm;
  }
  return KeyStatus::kUnknown;
}

}  // namespace spindle::rm
