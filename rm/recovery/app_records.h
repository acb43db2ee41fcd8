// The state store's bytes for applications and attempts: RmApp and RmAttempt
// as ApplicationStateDataProto and ApplicationAttemptStateDataProto
// (yarn_server_resourcemanager_recovery.proto).
//
// What is kept is what a restarted RM needs to resume: the submission (the
// client's context bytes and what the RM made of them), times, final states,
// final statuses and diagnostics, and each attempt's AM container. Live
// state is not kept (a non-final app or attempt is stored without a state;
// registration details and progress come back when the AM re-registers),
// nor anything the pool assigns (its app id), nor extra resource types
// beyond memory and vcores.
//
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "rm/apps/rm_app.h"

namespace spindle::rm {

std::string EncodeAppRecord(const RmApp& app);
// The app without attempts. Its state is the stored final state, or kNew
// for an app stored before it ended. Corruption for bytes that do not parse
// or lack the application id.
Result<RmApp> DecodeAppRecord(const std::string& bytes);

// True if `bytes` is an application record a Java RM wrote (none of
// Spindle's fields): its final status is not stored and is resolved from its
// attempts (ResolveHadoopFinalStatus).
bool IsHadoopAppRecord(const std::string& bytes);
// A final app of a Java RM's record, its attempts attached: the final status
// Hadoop's RMAppImpl.getFinalApplicationStatus gives it (the last attempt's
// if the AM reported one, else what the final state implies: KILLED,
// FAILED, or SUCCEEDED for FINISHED). Apps not final are left UNDEFINED.
void ResolveHadoopFinalStatus(RmApp* app);

// An attempt's outstanding asks are kept beside its record, under this id.
std::string AsksRecordId(const ApplicationAttemptId& attempt);
// True if `record_id` names an AsksRecordId rather than an attempt.
bool IsAsksRecordId(std::string_view record_id);
// The record holding row `key` of `attempt` (AppStore::SaveAttemptRows),
// stored with the application's attempts.
std::string AttemptRowRecordId(const ApplicationAttemptId& attempt, std::string_view key);
// The attempt and row key of a row record id; nullopt if `record_id` names
// no row.
struct AttemptRowName {
  std::string attempt;
  std::string key;
};
std::optional<AttemptRowName> ParseAttemptRowRecordId(std::string_view record_id);

// RMStateStore.AM_CLIENT_TOKEN_MASTER_KEY_NAME: the alias of the attempt's
// ClientToAMToken master key among the secret keys of the record's
// credentials (app_attempt_tokens, Hadoop's token storage), where Hadoop's
// RMStateStore.getCredentialsFromAppAttempt puts it (2.6 to 3.3 alike).
inline constexpr char kAmClientTokenMasterKeyName[] = "YARN_CLIENT_TOKEN_MASTER_KEY";

// The record's credentials hold the attempt's ClientToAMToken master key
// (RmAttempt::client_token_master_key) when it has one, and nothing else.
std::string EncodeAttemptRecord(const RmAttempt& attempt);
// The attempt's state is the stored final state, or kNew for an attempt
// stored before it ended. Corruption as above. Credentials that do not
// parse are logged and read as none, as Hadoop's
// ApplicationAttemptStateDataPBImpl.getAppAttemptTokens does.
Result<RmAttempt> DecodeAttemptRecord(const std::string& bytes);

}  // namespace spindle::rm
