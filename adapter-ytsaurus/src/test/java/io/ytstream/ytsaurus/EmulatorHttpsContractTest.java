package io.ytstream.ytsaurus;

/**
 * The whole port contract suite again, over HTTPS: the emulator serves a self-signed certificate
 * made at test time and the adapter trusts it through {@code yt.http.caCertificates}' form.
 */
class EmulatorHttpsContractTest extends EmulatorContractSuite {

  @Override
  boolean https() {
    return true;
  }
}
