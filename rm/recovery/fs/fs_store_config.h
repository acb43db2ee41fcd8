// The FileSystem state store's settings from the Hadoop configuration, per
// Hadoop line (YarnConfiguration and FileSystemRMStateStore at release-2.6.0,
// rel/release-2.7.7, rel/release-3.3.0):
//
//   uri           yarn.resourcemanager.fs.state-store.uri, default
//                 ${hadoop.tmp.dir}/yarn/system/rmstore. A path without a
//                 scheme is on fs.defaultFS (default file:///), as Hadoop's
//                 Path; a relative one is under the working directory.
//                 Only the local file system: "file:" URIs (no authority,
//                 or localhost) and plain paths on a file:/// default FS.
//                 Anything else (hdfs://, s3a://, viewfs://, a scheme-less
//                 path with an HDFS fs.defaultFS) is refused naming the key:
//                 Spindle has no HDFS client.
//   retries       2.7 / 3.3: fs.state-store.num-retries (default 0) and
//                 fs.state-store.retry-interval-ms (default 1000), the
//                 retries of I/O errors. 2.6 has neither: no retries.
//   retry policy  fs.state-store.retry-policy-spec (2.6, 2.7): the HDFS
//                 client's retry policy; nothing on a local file system.
//   sync          spindle.store.sync-writes (default true).
//
// Thread-safety: pure function.
#pragma once

#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/recovery/fs/fs_rm_state_store.h"

namespace spindle::rm {

inline constexpr char kFsStoreUriKey[] = "yarn.resourcemanager.fs.state-store.uri";

// InvalidArgument naming the file, key and value at fault.
Result<FsStoreOptions> FsStoreOptionsFromConfiguration(const Configuration& conf);

// The local directory a store URI names, `default_fs` standing for
// fs.defaultFS; InvalidArgument (without the key: the caller adds it) for a
// URI that is not on the local file system.
Result<std::string> LocalDirectoryOfStoreUri(const std::string& uri, const std::string& default_fs);

}  // namespace spindle::rm
