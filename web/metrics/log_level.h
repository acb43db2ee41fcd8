// /logLevel?log=<name>[&level=<LEVEL>] as Hadoop's LogLevel servlet, on glog.
// The page keeps the lines `hadoop daemonlog` prints (each starts with the
// "<!-- OUTPUT -->" marker; the CLI strips the tags): "Submitted Class Name:",
// "Log Class:", "Submitted Level:", "Setting Level to <L> ..." or
// "Bad Level : <L>", "Effective Level:".
//
// Names: "root", "" or any name with a '.' (a Java logger name: the whole
// process logs through glog) set the global level:
//   FATAL/OFF -> minloglevel 3; ERROR -> 2; WARN -> 1; INFO -> 0; with v = 0;
//   DEBUG -> minloglevel 0, v = 1; TRACE/ALL -> minloglevel 0, v = 2.
// Any other name is a glog module (a source file's base name, globs as in
// --vmodule): DEBUG -> SetVLOGLevel(name, 1), TRACE/ALL -> 2, any other
// known level -> 0 (a module has no severity of its own).
// Levels are case-insensitive log4j names; an unknown one changes nothing
// and prints "Bad Level" (status 200, as Hadoop).
//
// Thread-safety: any thread; changes are serialised. glog reads its flags
// without locks, as it does for its own flag updates.
#pragma once

#include "web/http/http_message.h"

namespace spindle::web {

HttpResponse HandleLogLevel(const HttpRequest& request);

}  // namespace spindle::web
