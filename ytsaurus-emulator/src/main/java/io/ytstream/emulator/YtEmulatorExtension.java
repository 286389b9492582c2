package io.ytstream.emulator;

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
 */
public final class YtEmulatorExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final Supplier<EmulatorOptions> options;
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
    this.options = options;
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
    emulator = YtEmulator.start(options.get());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      emulator = YtEmulator.start(options.get());
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
    return parameter.getParameter().getType() == YtEmulator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return emulator();
  }
}
