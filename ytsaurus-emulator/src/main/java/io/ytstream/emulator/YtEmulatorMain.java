package io.ytstream.emulator;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -cp ... io.ytstream.emulator.YtEmulatorMain [--port 8000] [--proxies 2] [--token T]
 * [--state-dir DIR] [--cluster-name NAME]}: runs the emulator until interrupted.
 */
public final class YtEmulatorMain {

  private YtEmulatorMain() {}

  public static void main(String[] args) throws InterruptedException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    EmulatorOptions options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      out.println("error: " + e.getMessage());
      out.println(usage());
      System.exit(2);
      return;
    }
    YtEmulator emulator = YtEmulator.start(options);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  emulator.close();
                  stopped.countDown();
                }));
    out.println(
        "YTsaurus emulator (cluster "
            + emulator.clusterName()
            + ") listening on "
            + emulator.proxyUrls()
            + (options.token().isPresent() ? ", token required" : ", no token required")
            + options.stateDir().map(d -> ", state in " + d).orElse(""));
    stopped.await();
  }

  static String usage() {
    return "usage: YtEmulatorMain [--port N (default 8000; 0 = any)] [--proxies N (default 2)]"
        + " [--token TOKEN] [--state-dir DIR] [--cluster-name NAME]";
  }

  static EmulatorOptions parse(String[] args) {
    EmulatorOptions options = EmulatorOptions.defaults().withPort(8000);
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new IllegalArgumentException("help requested");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      String value = args[++i];
      switch (arg) {
        case "--port" -> options = options.withPort(parseInt(arg, value));
        case "--proxies" -> options = options.withProxyCount(parseInt(arg, value));
        case "--token" -> options = options.withToken(value);
        case "--state-dir" -> options = options.withStateDir(Path.of(value));
        case "--cluster-name" -> options = options.withClusterName(value);
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    return options;
  }

  private static int parseInt(String option, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " takes a number, got " + value, e);
    }
  }
}
