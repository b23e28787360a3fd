// gtest main for the core tests: registers the fake backend (backend="fake").
#include <gtest/gtest.h>

#include "core/test/fake_backend.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  proton::FakeBackend::Register();
  return RUN_ALL_TESTS();
}
