// Tests of target classification (profiler.md §2.3; check N5) on files made in a temporary
// directory, with PATH and PROTON_PYTHON supplied by the test.
#include "launcher/target.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>

namespace proton::launcher {
namespace {

class TargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/proton-target-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    mkdir((dir_ + "/bin").c_str(), 0755);
    python_ = Make("bin/python3", "#!/bin/sh\n", 0755);
    env_["PATH"] = dir_ + "/bin";
  }
  void TearDown() override { EXPECT_EQ(std::system(("rm -rf " + dir_).c_str()), 0); }

  std::string Make(const std::string& name, const std::string& content, mode_t mode) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    chmod(path.c_str(), mode);
    return path;
  }

  std::variant<TargetPlan, TargetError> Classify(const std::vector<std::string>& target) {
    return ClassifyTarget(target, [this](std::string_view key) -> std::optional<std::string> {
      auto it = env_.find(std::string(key));
      if (it == env_.end()) return std::nullopt;
      return it->second;
    });
  }

  TargetPlan Plan(const std::vector<std::string>& target) {
    auto result = Classify(target);
    EXPECT_TRUE(std::holds_alternative<TargetPlan>(result))
        << std::get<TargetError>(result).message;
    return std::holds_alternative<TargetPlan>(result) ? std::get<TargetPlan>(result) : TargetPlan{};
  }

  TargetError Error(const std::vector<std::string>& target) {
    auto result = Classify(target);
    EXPECT_TRUE(std::holds_alternative<TargetError>(result));
    return std::holds_alternative<TargetError>(result) ? std::get<TargetError>(result)
                                                       : TargetError{};
  }

  std::string dir_;
  std::string python_;
  std::map<std::string, std::string> env_;
};

TEST_F(TargetTest, PythonScripts) {
  std::string py = Make("s.py", "print(1)\n", 0644);
  TargetPlan plan = Plan({py, "a", "-n", "b"});
  EXPECT_EQ(plan.kind, TargetKind::kScript);
  EXPECT_EQ(plan.executable, python_);
  EXPECT_EQ(plan.argv, (std::vector<std::string>{python_, py, "a", "-n", "b"}));

  EXPECT_EQ(Plan({Make("noext", "import sys\n", 0644)}).kind, TargetKind::kScript);
  EXPECT_EQ(Plan({Make("shebang", "#!/usr/bin/env python3\nprint(1)\n", 0755)}).kind,
            TargetKind::kScript);
  EXPECT_EQ(Plan({Make("shebang2", "#!/opt/venv/bin/python3.12 -u\n", 0644)}).kind,
            TargetKind::kScript);
  EXPECT_EQ(Plan({dir_}).kind, TargetKind::kScript);  // a directory with __main__.py
}

TEST_F(TargetTest, NativeTargets) {
  TargetPlan elf = Plan({"/bin/true", "x"});
  EXPECT_EQ(elf.kind, TargetKind::kNative);
  EXPECT_EQ(elf.executable, "/bin/true");
  EXPECT_EQ(elf.argv, (std::vector<std::string>{"/bin/true", "x"}));

  std::string sh = Make("run.sh", "#!/bin/sh\necho hi\n", 0755);
  EXPECT_EQ(Plan({sh}).kind, TargetKind::kNative);
  std::string env_bash = Make("run2", "#!/usr/bin/env -S bash -e\n", 0755);
  EXPECT_EQ(Plan({env_bash}).kind, TargetKind::kNative);

  Make("bin/mytool", "#!/bin/sh\n", 0755);
  TargetPlan on_path = Plan({"mytool", "-x"});
  EXPECT_EQ(on_path.kind, TargetKind::kNative);
  EXPECT_EQ(on_path.executable, dir_ + "/bin/mytool");
  EXPECT_EQ(on_path.argv, (std::vector<std::string>{"mytool", "-x"}));

  // `python3` itself is a PATH command, run as an executable.
  EXPECT_EQ(Plan({"python3", "x.py"}).executable, python_);
}

TEST_F(TargetTest, Pytest) {
  for (const std::string& target :
       std::vector<std::string>{"pytest", "/abs/path/pytest", dir_ + "/bin/pytest"}) {
    TargetPlan plan = Plan({target, "-q", "t.py"});
    EXPECT_EQ(plan.kind, TargetKind::kPytest);
    EXPECT_EQ(plan.argv, (std::vector<std::string>{python_, "-m", "pytest", "-q", "t.py"}));
  }
  // py.test is not the pytest rule.
  EXPECT_EQ(Error({"py.test"}).exit_status, 127);
}

TEST_F(TargetTest, Errors) {
  TargetError missing = Error({"nosuchfile.py"});
  EXPECT_EQ(missing.exit_status, 127);
  EXPECT_EQ(missing.message, "target not found: nosuchfile.py");
  EXPECT_EQ(Error({dir_ + "/missing"}).message, "target not found: " + dir_ + "/missing");

  std::string elf_copy = dir_ + "/true_copy";
  ASSERT_EQ(std::system(("cp /bin/true " + elf_copy + " && chmod 0644 " + elf_copy).c_str()), 0);
  TargetError not_exec = Error({elf_copy});
  EXPECT_EQ(not_exec.exit_status, 126);
  EXPECT_EQ(not_exec.message, "target is not executable: " + elf_copy);

  std::string sh = Make("plain.sh", "#!/bin/sh\n", 0644);
  EXPECT_EQ(Error({sh}).exit_status, 126);

  Make("bin/noexec", "#!/bin/sh\n", 0644);
  TargetError path_noexec = Error({"noexec"});
  EXPECT_EQ(path_noexec.exit_status, 126);
  EXPECT_EQ(path_noexec.message, "target is not executable: noexec");
}

TEST_F(TargetTest, SpecialFiles) {
  // A named pipe would make Python's open() wait for a writer forever: refused.
  const std::string fifo = dir_ + "/job.py";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  TargetError fifo_error = Error({fifo});
  EXPECT_EQ(fifo_error.exit_status, 126);
  EXPECT_EQ(fifo_error.message,
            "target is a named pipe (FIFO), which would wait for a writer, not a script or "
            "executable: " +
                fifo);
  // An anonymous pipe (`proton <(generate)`, /dev/fd/N) holds the script: a Python script.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(Plan({"/dev/fd/" + std::to_string(fds[0])}).kind, TargetKind::kScript);
  close(fds[0]);
  close(fds[1]);
}

TEST_F(TargetTest, MessagesShowPathsOnOneLine) {
  EXPECT_EQ(Error({"a\nb.py"}).message, "target not found: a\\nb.py");
  EXPECT_EQ(Error({"no\xffpe.py"}).message, "target not found: no\\xffpe.py");
  Make("bin/no\tx", "#!/bin/sh\n", 0644);
  EXPECT_EQ(Error({"no\tx"}).message, "target is not executable: no\\tx");
}

TEST_F(TargetTest, PythonChoice) {
  std::string py = Make("s.py", "", 0644);
  env_["PROTON_PYTHON"] = "/opt/custom/python";
  EXPECT_EQ(Plan({py}).executable, "/opt/custom/python");
  env_.erase("PROTON_PYTHON");
  unlink(python_.c_str());
  std::string plain = Make("bin/python", "#!/bin/sh\n", 0755);
  EXPECT_EQ(Plan({py}).executable, plain);
  unlink(plain.c_str());
  TargetError none = Error({py});
  EXPECT_EQ(none.exit_status, 127);
  EXPECT_EQ(none.message, "no Python interpreter found for " + py + " (set PROTON_PYTHON)");
}

TEST(Shebang, Interpreters) {
  EXPECT_TRUE(ShebangIsPython("#!/usr/bin/python3\n"));
  EXPECT_TRUE(ShebangIsPython("#! /usr/bin/env python\n"));
  EXPECT_TRUE(ShebangIsPython("#!/usr/bin/env -S VAR=1 python3.12 -u\n"));
  EXPECT_FALSE(ShebangIsPython("#!/bin/bash\n"));
  EXPECT_FALSE(ShebangIsPython("#!/usr/bin/env bash\npython\n"));
  EXPECT_FALSE(ShebangIsPython("#!\n"));
}

}  // namespace
}  // namespace proton::launcher
