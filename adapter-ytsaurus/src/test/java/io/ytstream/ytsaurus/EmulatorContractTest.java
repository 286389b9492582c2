package io.ytstream.ytsaurus;

/** The port contract suite, run against adapter-ytsaurus over HTTP to the emulator. */
class EmulatorContractTest extends EmulatorContractSuite {

  @Override
  boolean https() {
    return false;
  }
}
