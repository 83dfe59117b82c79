#pragma once
// Names of the temporary files gpusort keeps next to an output, and what becomes of those that a
// process left behind when it died without cleaning up (SIGKILL, a crash, a power cut).
//
// A name tells which process made it: `.NAME.gpusort-tmp-PID.START.HOST-XXXXXX`, where START is
// the process's start time (clock ticks after boot, /proc/PID/stat), so a reused pid is not taken
// for the same process, and HOST a hash of the boot id and the pid namespace, so only a process
// that could be seen from here is looked up. Two kinds hold data that may be the only copy, and
// are reported instead of removed:
// - `.NAME.gpusort-kept-...`: the complete output of an in-place rewrite of a hard-linked NAME,
//   kept until the rewrite is on disk;
// - `.NAME.gpusort-tmp-...-XXXXXX.old`: NAME's previous content, kept while NAME was replaced
//   together with another output.
#include <string>

namespace gpusort::files {

// The mkostemp template (ending in XXXXXX) for a temporary file beside `target`; it fits NAME_MAX
// with ".old" or the kept name's longer marker, whatever the length of the target's name.
std::string temp_template_for(const std::string& target);

// The folder a path names a file in ("." for a bare name, "/" at the root), and its last part.
std::string directory_of(const std::string& path);
std::string base_of(const std::string& path);

// The name a temporary takes while it is the complete copy of an in-place rewrite.
std::string kept_name_for(const std::string& temp_path);

// Once per directory and process: removes this user's temporaries (regular files) whose process
// is gone, and names on stderr, one line each, the kept copies and backups such a process left.
// A file of another boot or pid namespace, last changed before this machine started (a crash and
// restart, or another machine sharing the directory), is named, never removed. Temporaries of
// other users, of live processes, and newer ones that cannot be looked up are left alone.
void sweep_stale_temporaries(const std::string& directory);

}  // namespace gpusort::files
