package io.ytstream.emulator;

import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A running emulator for JUnit 5 tests. As a static field with {@code @RegisterExtension} it runs
 * once per class; as an instance field, once per test. Test methods and constructors can take a
 * {@link YtEmulator} parameter.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final YtEmulatorExtension YT = new YtEmulatorExtension();
 *
 * @Test
 * void reads(YtEmulator yt) { ... yt.url() ... }
 * }</pre>
 *
 * <p>{@link #https} serves HTTPS with a self-signed certificate made for this extension; tests take
 * it as a {@link SelfSignedCertificate} parameter (or from {@link #certificate()}) to tell their
 * client to trust it.
 */
public final class YtEmulatorExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final Supplier<EmulatorOptions> options;
  private final boolean selfSignedTls;
  private SelfSignedCertificate certificate;
  private YtEmulator emulator;
  private boolean perClass;

  public YtEmulatorExtension() {
    this(EmulatorOptions::defaults);
  }

  public YtEmulatorExtension(EmulatorOptions options) {
    this(() -> options);
  }

  /** Options made fresh for every start (e.g. a new manual clock per test). */
  public YtEmulatorExtension(Supplier<EmulatorOptions> options) {
    this(options, false);
  }

  private YtEmulatorExtension(Supplier<EmulatorOptions> options, boolean selfSignedTls) {
    this.options = options;
    this.selfSignedTls = selfSignedTls;
  }

  /**
   * An emulator that serves HTTPS with a self-signed certificate, made once per extension (with the
   * JDK's keytool, in a temporary directory) on first start.
   */
  public static YtEmulatorExtension https(Supplier<EmulatorOptions> options) {
    return new YtEmulatorExtension(options, true);
  }

  public static YtEmulatorExtension https(EmulatorOptions options) {
    return https(() -> options);
  }

  /** The certificate an {@link #https} emulator serves; empty for plain HTTP. */
  public Optional<SelfSignedCertificate> certificate() {
    return Optional.ofNullable(certificate);
  }

  private YtEmulator startEmulator() {
    EmulatorOptions chosen = options.get();
    if (selfSignedTls) {
      if (certificate == null) {
        certificate = SelfSignedCertificate.createTemporary();
      }
      chosen = chosen.withTls(certificate.serverKeyStore());
    }
    return YtEmulator.start(chosen);
  }

  /** The running emulator. */
  public YtEmulator emulator() {
    if (emulator == null) {
      throw new IllegalStateException("the emulator runs only while a test runs");
    }
    return emulator;
  }

  /** The first proxy's URL. */
  public String url() {
    return emulator().url();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    emulator = startEmulator();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      emulator = startEmulator();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  private void stop() {
    if (emulator != null) {
      emulator.close();
      emulator = null;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == YtEmulator.class || (selfSignedTls && type == SelfSignedCertificate.class);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    YtEmulator running = emulator();
    if (parameter.getParameter().getType() == SelfSignedCertificate.class) {
      return certificate;
    }
    return running;
  }
}
