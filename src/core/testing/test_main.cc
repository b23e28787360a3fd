// gtest main for the core tests: the test process's entry point creates the process runtime
// with the fake backend (backend="fake").
#include <gtest/gtest.h>

#include "core/runtime/runtime.h"
#include "core/testing/fake_backend.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  proton::RuntimeOptions options;
  options.backends.push_back(proton::FakeBackend::Registration());
  proton::CreateProcessRuntime(std::move(options));
  return RUN_ALL_TESTS();
}
