#include "web/rest/submission_json.h"

#include <string>
#include <vector>

#include "base/base64.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/credentials.h"

namespace spindle::web::rest {

namespace {

namespace y = hadoop::yarn;
using json::JsonValue;

Status Bad(const std::string& message) { return Status::InvalidArgument(message); }

// The values of a field Jersey may have written as one value or a list.
std::vector<const JsonValue*> Elements(const JsonValue* value) {
  std::vector<const JsonValue*> out;
  if (value == nullptr || value->is_null()) return out;
  if (value->is_array()) {
    for (const JsonValue& element : value->elements()) out.push_back(&element);
  } else {
    out.push_back(value);
  }
  return out;
}

Result<std::string> Text(const JsonValue& value, const std::string& field) {
  if (value.is_string() || value.is_number()) return value.text();
  if (value.is_bool()) return std::string(value.bool_value() ? "true" : "false");
  return Bad("field " + field + ": expected a string, got " + JsonValue::TypeName(value.type()));
}

Result<std::optional<std::string>> OptionalText(const JsonValue& object, const char* field) {
  const JsonValue* value = object.Find(field);
  if (value == nullptr || value->is_null()) return std::optional<std::string>();
  ASSIGN_OR_RETURN(std::string text, Text(*value, field));
  return std::optional<std::string>(std::move(text));
}

Result<std::optional<int64_t>> OptionalInt(const JsonValue& object, const char* field) {
  const JsonValue* value = object.Find(field);
  if (value == nullptr || value->is_null()) return std::optional<int64_t>();
  std::optional<int64_t> number;
  if (value->is_number()) {
    number = value->AsInt64();
  } else if (value->is_string()) {
    // JAXB reads the element's text; the JSON spelling does not matter.
    const std::string& text = value->text();
    int64_t parsed = 0;
    size_t used = 0;
    try {
      parsed = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != 0 && used == text.size()) number = parsed;
  }
  if (!number.has_value()) {
    return Bad(std::string("field ") + field + ": expected an integer, got " +
               (value->is_string() || value->is_number() ? "'" + value->text() + "'"
                                                         : JsonValue::TypeName(value->type())));
  }
  return number;
}

Result<std::optional<bool>> OptionalBool(const JsonValue& object, const char* field) {
  const JsonValue* value = object.Find(field);
  if (value == nullptr || value->is_null()) return std::optional<bool>();
  if (value->is_bool()) return std::optional<bool>(value->bool_value());
  if (value->is_string() && (value->text() == "true" || value->text() == "false")) {
    return std::optional<bool>(value->text() == "true");
  }
  return Bad(std::string("field ") + field + ": expected true or false");
}

Result<const JsonValue*> OptionalObject(const JsonValue& object, const char* field) {
  const JsonValue* value = object.Find(field);
  if (value == nullptr || value->is_null()) return static_cast<const JsonValue*>(nullptr);
  // An empty wrapper may come as "" (XML-ish JSON writers).
  if (value->is_string() && value->text().empty()) return static_cast<const JsonValue*>(nullptr);
  if (!value->is_object()) {
    return Bad(std::string("field ") + field + ": expected an object, got " +
               JsonValue::TypeName(value->type()));
  }
  return value;
}

// A JAXB map: {"entry": [{"key": k, "value": v}, ...]} (or one entry bare).
struct MapEntry {
  std::string key;
  const JsonValue* value = nullptr;
};
Result<std::vector<MapEntry>> MapEntries(const JsonValue& object, const char* field) {
  std::vector<MapEntry> entries;
  ASSIGN_OR_RETURN(const JsonValue* map, OptionalObject(object, field));
  if (map == nullptr) return entries;
  for (const JsonValue* entry : Elements(map->Find("entry"))) {
    if (!entry->is_object()) return Bad(std::string("field ") + field + ": bad entry");
    const JsonValue* key = entry->Find("key");
    if (key == nullptr || key->is_null()) {
      return Bad(std::string("field ") + field + ": an entry has no key");
    }
    ASSIGN_OR_RETURN(std::string key_text, Text(*key, std::string(field) + ".key"));
    entries.push_back(MapEntry{std::move(key_text), entry->Find("value")});
  }
  return entries;
}

Result<std::string> EntryText(const MapEntry& entry, const char* field) {
  if (entry.value == nullptr || entry.value->is_null()) return std::string();
  return Text(*entry.value, std::string(field) + "[" + entry.key + "]");
}

// java.net.URI parts as URL.fromURI keeps them: scheme, user info, host,
// port (-1 when absent) and path (query and fragment are dropped).
Status UrlFromUri(const std::string& uri, y::URLProto* url) {
  const size_t colon = uri.find(':');
  const size_t first_delimiter = uri.find_first_of("/?#");
  std::string rest = uri;
  if (colon != std::string::npos && colon > 0 &&
      (first_delimiter == std::string::npos || colon < first_delimiter)) {
    url->set_scheme(uri.substr(0, colon));
    rest = uri.substr(colon + 1);
  }
  int32_t port = -1;
  if (rest.rfind("//", 0) == 0) {
    const size_t end = rest.find_first_of("/?#", 2);
    std::string authority = rest.substr(2, end == std::string::npos ? end : end - 2);
    rest = end == std::string::npos ? "" : rest.substr(end);
    if (const size_t at = authority.rfind('@'); at != std::string::npos) {
      url->set_userinfo(authority.substr(0, at));
      authority = authority.substr(at + 1);
    }
    const size_t port_colon = authority.rfind(':');
    if (port_colon != std::string::npos && authority.find(']', port_colon) == std::string::npos) {
      const std::string digits = authority.substr(port_colon + 1);
      if (!digits.empty()) {
        if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 5 ||
            std::stoi(digits) > 65535) {
          return Bad("Illegal character in port number of " + uri);
        }
        port = std::stoi(digits);
      }
      authority = authority.substr(0, port_colon);
    }
    if (!authority.empty()) url->set_host(authority);
  }
  url->set_port(port);
  url->set_file(rest.substr(0, rest.find_first_of("?#")));
  return Status::OK();
}

Result<y::LocalResourceTypeProto> ResourceType(const std::string& name) {
  if (name == "ARCHIVE") return y::ARCHIVE;
  if (name == "FILE") return y::FILE;
  if (name == "PATTERN") return y::PATTERN;
  return Bad("local resource type '" + name + "' is not one of ARCHIVE, FILE, PATTERN");
}

Result<y::LocalResourceVisibilityProto> Visibility(const std::string& name) {
  if (name == "PUBLIC") return y::PUBLIC;
  if (name == "PRIVATE") return y::PRIVATE;
  if (name == "APPLICATION") return y::APPLICATION;
  return Bad("local resource visibility '" + name + "' is not one of PUBLIC, PRIVATE, APPLICATION");
}

Status LocalResource(const MapEntry& entry, y::LocalResourceProto* resource) {
  if (entry.value == nullptr || !entry.value->is_object()) {
    return Bad("local resource " + entry.key + ": expected an object");
  }
  const JsonValue& info = *entry.value;
  ASSIGN_OR_RETURN(auto uri, OptionalText(info, "resource"));
  if (!uri.has_value()) return Bad("local resource " + entry.key + " has no resource URI");
  RETURN_NOT_OK(UrlFromUri(*uri, resource->mutable_resource()));
  ASSIGN_OR_RETURN(auto type, OptionalText(info, "type"));
  if (type.has_value()) {
    ASSIGN_OR_RETURN(auto proto_type, ResourceType(*type));
    resource->set_type(proto_type);
  }
  ASSIGN_OR_RETURN(auto visibility, OptionalText(info, "visibility"));
  if (visibility.has_value()) {
    ASSIGN_OR_RETURN(auto proto_visibility, Visibility(*visibility));
    resource->set_visibility(proto_visibility);
  }
  // LocalResourceInfo's setters refuse non-positive sizes and times.
  ASSIGN_OR_RETURN(auto size, OptionalInt(info, "size"));
  if (size.has_value() && *size <= 0) return Bad("size must be greater than 0");
  resource->set_size(size.value_or(0));
  ASSIGN_OR_RETURN(auto timestamp, OptionalInt(info, "timestamp"));
  if (timestamp.has_value() && *timestamp <= 0) return Bad("timestamp must be greater than 0");
  resource->set_timestamp(timestamp.value_or(0));
  ASSIGN_OR_RETURN(auto pattern, OptionalText(info, "pattern"));
  if (pattern.has_value()) resource->set_pattern(*pattern);
  return Status::OK();
}

Result<std::string> CredentialsBlob(const JsonValue& spec) {
  rm::Credentials credentials;
  ASSIGN_OR_RETURN(const JsonValue* info, OptionalObject(spec, "credentials"));
  if (info != nullptr) {
    const std::string failure = "Could not parse credentials data; exception message = ";
    ASSIGN_OR_RETURN(auto tokens, MapEntries(*info, "tokens"));
    for (const MapEntry& entry : tokens) {
      ASSIGN_OR_RETURN(std::string encoded, EntryText(entry, "tokens"));
      auto raw = Base64DecodeLenient(encoded);
      if (!raw.ok()) return Bad(failure + raw.status().message());
      auto token = rm::ParseWritableToken(*raw);
      if (!token.ok()) return Bad(failure + token.status().message());
      credentials.AddToken(entry.key, std::move(token).value());
    }
    ASSIGN_OR_RETURN(auto secrets, MapEntries(*info, "secrets"));
    for (const MapEntry& entry : secrets) {
      ASSIGN_OR_RETURN(std::string encoded, EntryText(entry, "secrets"));
      auto secret = Base64DecodeLenient(encoded);
      if (!secret.ok()) return Bad(failure + secret.status().message());
      credentials.AddSecret(entry.key, std::move(secret).value());
    }
  }
  return credentials.Serialize(rm::CredentialsFormat::kWritable);
}

Status LaunchContext(const JsonValue* spec, y::ContainerLaunchContextProto* context) {
  // An absent spec is the DAO's empty one: still an (empty) token storage.
  static const JsonValue kEmpty = JsonValue::Object(0);
  const JsonValue& info = spec != nullptr ? *spec : kEmpty;
  ASSIGN_OR_RETURN(auto resources, MapEntries(info, "local-resources"));
  for (const MapEntry& entry : resources) {
    auto* item = context->add_localresources();
    item->set_key(entry.key);
    RETURN_NOT_OK(LocalResource(entry, item->mutable_value()));
  }
  ASSIGN_OR_RETURN(auto environment, MapEntries(info, "environment"));
  for (const MapEntry& entry : environment) {
    auto* item = context->add_environment();
    item->set_key(entry.key);
    ASSIGN_OR_RETURN(std::string value, EntryText(entry, "environment"));
    item->set_value(std::move(value));
  }
  ASSIGN_OR_RETURN(const JsonValue* commands, OptionalObject(info, "commands"));
  if (commands != nullptr) {
    for (const JsonValue* command : Elements(commands->Find("command"))) {
      ASSIGN_OR_RETURN(std::string text, Text(*command, "commands.command"));
      context->add_command(std::move(text));
    }
  }
  ASSIGN_OR_RETURN(auto service_data, MapEntries(info, "service-data"));
  for (const MapEntry& entry : service_data) {
    ASSIGN_OR_RETURN(std::string encoded, EntryText(entry, "service-data"));
    if (encoded.empty()) continue;
    auto data = Base64DecodeLenient(encoded);
    if (!data.ok()) return Bad("service-data[" + entry.key + "]: " + data.status().message());
    auto* item = context->add_service_data();
    item->set_key(entry.key);
    item->set_value(std::move(data).value());
  }
  ASSIGN_OR_RETURN(std::string tokens, CredentialsBlob(info));
  context->set_tokens(std::move(tokens));
  ASSIGN_OR_RETURN(auto acls, MapEntries(info, "application-acls"));
  for (const MapEntry& entry : acls) {
    auto* item = context->add_application_acls();
    if (entry.key == "VIEW_APP") {
      item->set_accesstype(y::APPACCESS_VIEW_APP);
    } else if (entry.key == "MODIFY_APP") {
      item->set_accesstype(y::APPACCESS_MODIFY_APP);
    } else {
      return Bad("application-acls: '" + entry.key + "' is not VIEW_APP or MODIFY_APP");
    }
    ASSIGN_OR_RETURN(std::string acl, EntryText(entry, "application-acls"));
    item->set_acl(std::move(acl));
  }
  return Status::OK();
}

Status LogAggregation(const JsonValue& info, y::LogAggregationContextProto* context) {
  struct Field {
    const char* name;
    void (y::LogAggregationContextProto::*set)(const std::string&);
  };
  static const Field kFields[] = {
      {"log-include-pattern", &y::LogAggregationContextProto::set_include_pattern},
      {"log-exclude-pattern", &y::LogAggregationContextProto::set_exclude_pattern},
      {"rolled-log-include-pattern",
       &y::LogAggregationContextProto::set_rolled_logs_include_pattern},
      {"rolled-log-exclude-pattern",
       &y::LogAggregationContextProto::set_rolled_logs_exclude_pattern},
      {"log-aggregation-policy-class-name",
       &y::LogAggregationContextProto::set_log_aggregation_policy_class_name},
      {"log-aggregation-policy-parameters",
       &y::LogAggregationContextProto::set_log_aggregation_policy_parameters},
  };
  for (const Field& field : kFields) {
    ASSIGN_OR_RETURN(auto value, OptionalText(info, field.name));
    if (value.has_value()) (context->*field.set)(*value);
  }
  return Status::OK();
}

// "reservation_<cluster timestamp>_<id>".
Status ReservationId(const std::string& text, y::ReservationIdProto* id) {
  const std::string prefix = "reservation_";
  const size_t underscore = text.find('_', prefix.size());
  if (text.rfind(prefix, 0) != 0 || underscore == std::string::npos) {
    return Bad("The specified reservation id " + text + " is invalid");
  }
  try {
    size_t used_ts = 0;
    size_t used_id = 0;
    const std::string ts = text.substr(prefix.size(), underscore - prefix.size());
    const std::string seq = text.substr(underscore + 1);
    const int64_t cluster_timestamp = std::stoll(ts, &used_ts);
    const int64_t number = std::stoll(seq, &used_id);
    if (used_ts != ts.size() || used_id != seq.size()) throw std::invalid_argument(text);
    id->set_cluster_timestamp(cluster_timestamp);
    id->set_id(number);
  } catch (const std::exception&) {
    return Bad("The specified reservation id " + text + " is invalid");
  }
  return Status::OK();
}

}  // namespace

Result<y::ApplicationSubmissionContextProto> SubmissionContextFromJson(
    const JsonValue& body, const SubmissionLimits& limits) {
  if (!body.is_object()) {
    return Bad(std::string("the body must be a JSON object (application-submission-context), "
                           "got ") +
               JsonValue::TypeName(body.type()));
  }
  y::ApplicationSubmissionContextProto context;
  ASSIGN_OR_RETURN(auto app_id, OptionalText(body, "application-id"));
  auto parsed_id = rm::ApplicationId::Parse(app_id.value_or(""));
  if (!parsed_id.ok()) return Bad("Could not parse application id " + app_id.value_or(""));
  context.mutable_application_id()->set_cluster_timestamp(parsed_id->cluster_timestamp);
  context.mutable_application_id()->set_id(parsed_id->id);

  ASSIGN_OR_RETURN(auto name, OptionalText(body, "application-name"));
  context.set_application_name(name.value_or(""));
  ASSIGN_OR_RETURN(auto queue, OptionalText(body, "queue"));
  if (queue.has_value()) context.set_queue(*queue);
  ASSIGN_OR_RETURN(auto priority, OptionalInt(body, "priority"));
  if (priority.has_value())
    context.mutable_priority()->set_priority(static_cast<int32_t>(*priority));

  ASSIGN_OR_RETURN(const JsonValue* spec, OptionalObject(body, "am-container-spec"));
  RETURN_NOT_OK(LaunchContext(spec, context.mutable_am_container_spec()));

  ASSIGN_OR_RETURN(auto unmanaged, OptionalBool(body, "unmanaged-AM"));
  context.set_unmanaged_am(unmanaged.value_or(false));
  ASSIGN_OR_RETURN(auto cancel_tokens, OptionalBool(body, "cancel-tokens-when-complete"));
  context.set_cancel_tokens_when_complete(cancel_tokens.value_or(true));
  ASSIGN_OR_RETURN(auto max_attempts, OptionalInt(body, "max-app-attempts"));
  context.set_maxappattempts(static_cast<int32_t>(max_attempts.value_or(0)));

  int64_t memory = 0;
  int64_t vcores = 0;
  ASSIGN_OR_RETURN(const JsonValue* resource, OptionalObject(body, "resource"));
  if (resource != nullptr) {
    ASSIGN_OR_RETURN(auto m, OptionalInt(*resource, "memory"));
    ASSIGN_OR_RETURN(auto v, OptionalInt(*resource, "vCores"));
    memory = m.value_or(0);
    vcores = v.value_or(0);
  }
  if (vcores > limits.max_vcores) return Bad("Requested more cores than configured max");
  if (memory > limits.max_memory_mb) return Bad("Requested more memory than configured max");
  y::ResourceProto capability;
  capability.set_memory(memory);
  capability.set_virtual_cores(static_cast<int32_t>(vcores));
  *context.mutable_resource() = capability;

  ASSIGN_OR_RETURN(auto type, OptionalText(body, "application-type"));
  context.set_applicationtype(type.value_or(""));
  ASSIGN_OR_RETURN(auto keep, OptionalBool(body, "keep-containers-across-application-attempts"));
  context.set_keep_containers_across_application_attempts(keep.value_or(false));
  ASSIGN_OR_RETURN(auto app_label, OptionalText(body, "app-node-label-expression"));
  context.set_node_label_expression(app_label.value_or(""));
  ASSIGN_OR_RETURN(auto am_label, OptionalText(body, "am-container-node-label-expression"));

  // ApplicationSubmissionContext.newInstance: one AM request at ANY with
  // the resource and the AM's label.
  y::ResourceRequestProto* am = context.add_am_container_resource_request();
  am->mutable_priority()->set_priority(0);
  am->set_resource_name("*");
  *am->mutable_capability() = capability;
  am->set_num_containers(1);
  am->set_node_label_expression(am_label.value_or(""));

  ASSIGN_OR_RETURN(const JsonValue* tags, OptionalObject(body, "application-tags"));
  if (tags != nullptr) {
    for (const JsonValue* tag : Elements(tags->Find("tag"))) {
      ASSIGN_OR_RETURN(std::string text, Text(*tag, "application-tags.tag"));
      context.add_applicationtags(std::move(text));
    }
  }
  ASSIGN_OR_RETURN(auto validity, OptionalInt(body, "attempt-failures-validity-interval"));
  context.set_attempt_failures_validity_interval(validity.value_or(-1));
  ASSIGN_OR_RETURN(const JsonValue* log_context, OptionalObject(body, "log-aggregation-context"));
  if (log_context != nullptr) {
    RETURN_NOT_OK(LogAggregation(*log_context, context.mutable_log_aggregation_context()));
  }
  ASSIGN_OR_RETURN(auto reservation, OptionalText(body, "reservation-id"));
  if (reservation.has_value() && !reservation->empty()) {
    RETURN_NOT_OK(ReservationId(*reservation, context.mutable_reservation_id()));
  }
  return context;
}

}  // namespace spindle::web::rest
