// Profiles that survive SIGTERM, SIGHUP, SIGQUIT, (in programs that leave it at the default)
// SIGINT, and a crash: SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL (profiler.md §2.10). A handler
// installed only where the disposition is the default wakes a dedicated writer thread through
// a pipe (async-signal-safe; the thread that crashed waits in the handler); the writer runs
// the write callback under a 10 s grace timeout, restores the default disposition and
// re-raises the signal, so the process still dies by it.
#pragma once

#include <functional>

namespace proton::cli {

// Installs the handlers and starts the writer thread once per process (idempotent).
// `write_profile` runs on the writer thread. Returns the number of signals handled.
int InstallSignalWriter(std::function<void()> write_profile);

// In a forked child (atfork handler): the writer thread did not survive fork, so the
// dispositions go back to the default and the writer is started again for the child.
void SignalWriterAfterForkChild();

// Grace timeout of the whole write (tests shorten it).
void SetSignalGraceSeconds(int seconds);

// For the exit path, after its own write: when one of our handlers caught a signal, waits
// (never returns) for the writer thread to re-raise it, so a signal that arrived during the
// exit-time write still ends the process by that signal, after the profile is complete.
void AwaitDeathIfSignalled();

}  // namespace proton::cli
