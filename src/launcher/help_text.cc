// See help_text.h. The option lines are what argparse renders for the reference's
// add_argument calls (choices shown as {a,b}, help column at 24, wrapped after 80 columns).
#include "launcher/help_text.h"

namespace proton::launcher {

namespace {

constexpr std::string_view kUsage =
    "usage: \n"
    "    proton [options] script.py [script_args] [script_options]\n"
    "    proton [options] pytest [pytest_args] [script_options]\n"
    "    proton [options] executable [args]\n"
    "    python -m proton [options] script.py [script_args] [script_options]\n";

constexpr std::string_view kHelp =
    "usage: \n"
    "    proton [options] script.py [script_args] [script_options]\n"
    "    proton [options] pytest [pytest_args] [script_options]\n"
    "    proton [options] executable [args]\n"
    "    python -m proton [options] script.py [script_args] [script_options]\n"
    "\n"
    "The proton command utility for profiling scripts and pytest tests.\n"
    "\n"
    "positional arguments:\n"
    "  target_args           Subcommand and its arguments\n"
    "\n"
    "options:\n"
    "  -h, --help            show this help message and exit\n"
    "  -n NAME, --name NAME  Name of the profiling session\n"
    "  -b {cupti}, --backend {cupti}\n"
    "                        Profiling backend\n"
    "  -c {shadow,python}, --context {shadow,python}\n"
    "                        Profiling context\n"
    "  -m MODE, --mode MODE  Profiling mode\n"
    "  -d {tree,trace}, --data {tree,trace}\n"
    "                        Profiling data\n"
    "  -k {None,triton}, --hook {None,triton}\n"
    "                        Profiling hook\n"
    "  -f FORMAT, --format FORMAT\n"
    "                        Output format: hatchet, hatchet_msgpack (-d tree),\n"
    "                        chrome_trace, perfetto_trace (-d trace); default:\n"
    "                        hatchet for -d tree, chrome_trace for -d trace\n"
    "  -V, --version         show program's version number and exit\n";

}  // namespace

std::string_view UsageText() { return kUsage; }
std::string_view HelpText() { return kHelp; }

}  // namespace proton::launcher
