// The YARN exception classes the RM core's errors carry (WIRE.md 2.6), so
// that protocol handlers can send a Status unchanged and Hadoop clients act
// on it as they would on Apache's RM.
#pragma once

namespace spindle::rm::yarn {

inline constexpr char kYarnException[] = "org.apache.hadoop.yarn.exceptions.YarnException";
inline constexpr char kApplicationNotFound[] =
    "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException";
inline constexpr char kApplicationAttemptNotFound[] =
    "org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException";
inline constexpr char kApplicationMasterNotRegistered[] =
    "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException";
inline constexpr char kInvalidApplicationMasterRequest[] =
    "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException";
inline constexpr char kInvalidResourceRequest[] =
    "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException";
// A subclass of InvalidResourceRequestException (SchedulerUtils' label checks).
inline constexpr char kInvalidLabelResourceRequest[] =
    "org.apache.hadoop.yarn.exceptions.InvalidLabelResourceRequestException";
inline constexpr char kInvalidResourceBlacklistRequest[] =
    "org.apache.hadoop.yarn.exceptions.InvalidResourceBlacklistRequestException";
inline constexpr char kInvalidContainerRelease[] =
    "org.apache.hadoop.yarn.exceptions.InvalidContainerReleaseException";
inline constexpr char kYarnFeatureNotEnabled[] =
    "org.apache.hadoop.yarn.exceptions.YARNFeatureNotEnabledException";
inline constexpr char kContainerNotFound[] =
    "org.apache.hadoop.yarn.exceptions.ContainerNotFoundException";
inline constexpr char kAccessControl[] = "org.apache.hadoop.security.AccessControlException";
// What a standby RM answers (Hadoop 3.3 AdminService.checkRMStatus).
inline constexpr char kStandby[] = "org.apache.hadoop.ipc.StandbyException";

}  // namespace spindle::rm::yarn
