package io.ytstream.emulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Lines typed into a running emulator's console that ban, overload or restore one of its proxies,
 * numbered as their addresses are (proxy N on 127.0.0.N): {@code ban 2}, {@code overload 3}, {@code
 * restore 2}. Lets a person watch a client cope with an unavailable proxy while a job runs.
 */
final class ProxyConsole {

  static final String HELP =
      "console: 'ban N', 'overload N', 'restore N' (proxy N listens on 127.0.0.N)";

  private final YtEmulator emulator;
  private final PrintStream out;

  ProxyConsole(YtEmulator emulator, PrintStream out) {
    this.emulator = emulator;
    this.out = out;
  }

  /** Reads lines until the input ends, on a daemon thread. */
  void start(InputStream in) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  if (!line.isBlank()) {
                    out.println(apply(line));
                  }
                }
              } catch (IOException e) {
                // No console (closed or detached): nothing more to read.
              }
            },
            "ytsaurus-emulator-console");
    reader.setDaemon(true);
    reader.start();
  }

  /** Applies one line and says what it did. */
  String apply(String line) {
    String[] words = line.strip().toLowerCase(Locale.ROOT).split("\\s+");
    if (words.length != 2) {
      return "? " + HELP;
    }
    int number;
    try {
      number = Integer.parseInt(words[1]);
    } catch (NumberFormatException e) {
      return "? " + HELP;
    }
    int index = number - 1;
    if (index < 0 || index >= emulator.options().proxyCount()) {
      return "? no proxy " + number + ": proxies are 1.." + emulator.options().proxyCount();
    }
    String done;
    switch (words[0]) {
      case "ban" -> {
        emulator.banProxy(index);
        done = "banned";
      }
      case "overload" -> {
        emulator.overloadProxy(index);
        done = "overloaded";
      }
      case "restore" -> {
        emulator.restoreProxy(index);
        done = "serving";
      }
      default -> {
        return "? " + HELP;
      }
    }
    return "proxy " + number + " (127.0.0." + number + "): " + done;
  }
}
