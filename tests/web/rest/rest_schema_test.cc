// Every field Hadoop documents (hadoop_rest_fields.h) is in our answers with
// the documented JSON kind. The answers are read with a small lenient
// reader: Hadoop's JSON (and ours) repeats the "entry" key of maps, which
// the project's strict reader rejects.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/web/rest/cluster_fixture.h"
#include "tests/web/rest/hadoop_rest_fields.h"

namespace spindle::web::rest::testing {
namespace {

// A parsed JSON value; object members keep duplicates, in order.
struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  std::string text;  // number literal or string value
  std::vector<Json> items;
  struct Member;
  std::vector<Member> members;

  const Json* Get(const std::string& key) const;
};

struct Json::Member {
  std::string key;
  Json value;
};

const Json* Json::Get(const std::string& key) const {
  for (const auto& member : members) {
    if (member.key == key) return &member.value;
  }
  return nullptr;
}

class Reader {
 public:
  explicit Reader(const std::string& text) : s_(text) {}

  bool Parse(Json* out) {
    if (!Value(out)) return false;
    Blank();
    return i_ == s_.size();
  }

 private:
  void Blank() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c == '\\') {
        if (i_ >= s_.size()) return false;
        const char e = s_[i_++];
        switch (e) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'u':
            if (i_ + 4 > s_.size()) return false;
            c = static_cast<char>(std::stoi(s_.substr(i_, 4), nullptr, 16));
            i_ += 4;
            break;
          case '"':
          case '\\':
          case '/':
            c = e;
            break;
          default:
            return false;
        }
      }
      *out += c;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  bool Value(Json* out) {
    Blank();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') {
      out->type = Json::Type::kObject;
      ++i_;
      Blank();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
      while (true) {
        Blank();
        std::string key;
        if (!String(&key)) return false;
        Blank();
        if (i_ >= s_.size() || s_[i_++] != ':') return false;
        Json value;
        if (!Value(&value)) return false;
        out->members.push_back(Json::Member{std::move(key), std::move(value)});
        Blank();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
        return false;
      }
    }
    if (c == '[') {
      out->type = Json::Type::kArray;
      ++i_;
      Blank();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
      while (true) {
        Json value;
        if (!Value(&value)) return false;
        out->items.push_back(std::move(value));
        Blank();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        return false;
      }
    }
    if (c == '"') {
      out->type = Json::Type::kString;
      return String(&out->text);
    }
    if (Literal("true") || Literal("false")) {
      out->type = Json::Type::kBool;
      return true;
    }
    if (Literal("null")) return true;
    const size_t start = i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                              s_[i_] == '+' || s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
    }
    if (i_ == start) return false;
    out->type = Json::Type::kNumber;
    out->text = s_.substr(start, i_ - start);
    return true;
  }

  const std::string& s_;
  size_t i_ = 0;
};

Json ParseOrFail(const std::string& text) {
  Json json;
  Reader reader(text);
  EXPECT_TRUE(reader.Parse(&json)) << text;
  return json;
}

// Checks `object` against `fields`; `what` names it in failures.
void CheckFields(const Json& object, const std::vector<DocumentedField>& fields,
                 const std::string& what) {
  ASSERT_EQ(object.type, Json::Type::kObject) << what;
  for (const DocumentedField& field : fields) {
    const Json* value = object.Get(field.name);
    if (value == nullptr) {
      EXPECT_TRUE(field.nullable) << what << ": documented field " << field.name << " missing";
      continue;
    }
    switch (field.kind) {
      case FieldKind::kString:
        EXPECT_EQ(value->type, Json::Type::kString) << what << "." << field.name;
        break;
      case FieldKind::kInt:
        EXPECT_EQ(value->type, Json::Type::kNumber) << what << "." << field.name;
        EXPECT_EQ(value->text.find_first_of(".eE"), std::string::npos)
            << what << "." << field.name << " is not integral: " << value->text;
        break;
      case FieldKind::kFloat:
        EXPECT_EQ(value->type, Json::Type::kNumber) << what << "." << field.name;
        break;
      case FieldKind::kBool:
        EXPECT_EQ(value->type, Json::Type::kBool) << what << "." << field.name;
        break;
      case FieldKind::kObject:
        EXPECT_EQ(value->type, Json::Type::kObject) << what << "." << field.name;
        break;
    }
  }
}

using RestSchemaTest = ClusterFixture;

TEST_F(RestSchemaTest, ClusterInfoHasTheDocumentedFields) {
  const Json doc = ParseOrFail(Get("/ws/v1/cluster/info").body);
  ASSERT_EQ(doc.members.size(), 1u);
  CheckFields(*doc.Get("clusterInfo"), ClusterInfoFields(), "clusterInfo");
}

TEST_F(RestSchemaTest, ClusterMetricsHasTheDocumentedFields) {
  const Json doc = ParseOrFail(Get("/ws/v1/cluster/metrics").body);
  ASSERT_EQ(doc.members.size(), 1u);
  CheckFields(*doc.Get("clusterMetrics"), ClusterMetricsFields(), "clusterMetrics");
}

TEST_F(RestSchemaTest, EveryAppHasTheDocumentedFields) {
  const Json doc = ParseOrFail(Get("/ws/v1/cluster/apps").body);
  const Json* apps = doc.Get("apps");
  ASSERT_NE(apps, nullptr);
  const Json* list = apps->Get("app");
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->type, Json::Type::kArray);
  ASSERT_EQ(list->items.size(), 4u);
  for (const Json& app : list->items) CheckFields(app, AppFields(), "app " + app.Get("id")->text);
  // A running app with its AM has the nullable ones too.
  const Json one = ParseOrFail(Get("/ws/v1/cluster/apps/application_1700000000000_0001").body);
  const Json* app = one.Get("app");
  ASSERT_NE(app, nullptr);
  for (const char* name : {"trackingUrl", "amContainerLogs", "amHostHttpAddress", "amRPCAddress",
                           "logAggregationStatus", "amNodeLabelExpression"}) {
    EXPECT_NE(app->Get(name), nullptr) << name;
  }
}

TEST_F(RestSchemaTest, EveryNodeHasTheDocumentedFields) {
  const Json doc = ParseOrFail(Get("/ws/v1/cluster/nodes").body);
  const Json* list = doc.Get("nodes")->Get("node");
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->items.size(), 2u);
  for (const Json& node : list->items) {
    const std::string what = "node " + node.Get("id")->text;
    CheckFields(node, NodeFields(), what);
    CheckFields(*node.Get("resourceUtilization"), ResourceUtilizationFields(),
                what + ".resourceUtilization");
  }
  const Json one = ParseOrFail(Get("/ws/v1/cluster/nodes/host1:45454").body);
  CheckFields(*one.Get("node"), NodeFields(), "node host1:45454");
}

TEST(RestSchemaReaderTest, ReadsDuplicateKeysAndEscapes) {
  const Json doc =
      ParseOrFail(R"({"m":{"entry":{"key":"a"},"entry":{"key":"b"}},"u":"\/x\u0041"})");
  EXPECT_EQ(doc.Get("m")->members.size(), 2u);
  EXPECT_EQ(doc.Get("u")->text, "/xA");
  Json bad;
  std::string text = "{\"a\":}";
  Reader reader(text);
  EXPECT_FALSE(reader.Parse(&bad));
}

}  // namespace
}  // namespace spindle::web::rest::testing
