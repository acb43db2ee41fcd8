#include "security/gss_support.h"

#include <utility>

namespace spindle::security {

std::string GssStatusText(OM_uint32 major, OM_uint32 minor) {
  std::string text;
  for (const auto& [code, type] :
       {std::pair{major, GSS_C_GSS_CODE}, std::pair{minor, GSS_C_MECH_CODE}}) {
    if (type == GSS_C_MECH_CODE && code == 0) continue;
    OM_uint32 context = 0;
    do {
      OM_uint32 ignored = 0;
      gss_buffer_desc status = GSS_C_EMPTY_BUFFER;
      if (GSS_ERROR(gss_display_status(&ignored, code, type, GSS_C_NO_OID, &context, &status)))
        break;
      if (!text.empty()) text += ": ";
      text.append(static_cast<const char*>(status.value), status.length);
      gss_release_buffer(&ignored, &status);
    } while (context != 0);
  }
  return text;
}

Status GssFailure(std::string_view what, OM_uint32 major, OM_uint32 minor) {
  return Status::Unauthorized("GSS-API " + std::string(what) +
                              " failed: " + GssStatusText(major, minor));
}

GssOwnedBuffer::~GssOwnedBuffer() {
  OM_uint32 ignored = 0;
  gss_release_buffer(&ignored, &buffer);
}

std::string GssOwnedBuffer::str() const {
  if (buffer.length == 0) return std::string();
  return std::string(static_cast<const char*>(buffer.value), buffer.length);
}

gss_buffer_desc GssView(std::string_view bytes) {
  gss_buffer_desc buffer;
  buffer.length = bytes.size();
  buffer.value = const_cast<char*>(bytes.data());
  return buffer;
}

Result<gss_name_t> GssImportName(std::string_view text, gss_OID type) {
  gss_buffer_desc buffer = GssView(text);
  OM_uint32 minor = 0;
  gss_name_t name = GSS_C_NO_NAME;
  OM_uint32 major = gss_import_name(&minor, &buffer, type, &name);
  if (GSS_ERROR(major)) return GssFailure("import of name " + std::string(text), major, minor);
  return name;
}

Result<std::string> GssDisplayName(gss_name_t name) {
  GssOwnedBuffer display;
  OM_uint32 minor = 0;
  OM_uint32 major = gss_display_name(&minor, name, &display.buffer, nullptr);
  if (GSS_ERROR(major)) return GssFailure("display_name", major, minor);
  return display.str();
}

}  // namespace spindle::security
