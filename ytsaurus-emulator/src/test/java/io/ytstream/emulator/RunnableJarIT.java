package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Run it" command, as a newcomer runs it after {@code mvn -B -q -pl ytsaurus-emulator
 * -am package -DskipTests}: {@code java -jar ytsaurus-emulator/target/ytsaurus-emulator-all.jar}
 * with options, then one request. Runs after {@code package} (failsafe), against the jar that phase
 * built.
 */
class RunnableJarIT {

  @Test
  void theBuiltJarStartsAndAnswers() throws Exception {
    Path jar = Path.of(System.getProperty("emulator.jar", "target/ytsaurus-emulator-all.jar"));
    assertTrue(Files.isRegularFile(jar), "package builds " + jar);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(), "-jar", jar.toString(), "--port", "0", "--token", "devtoken")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      assertTrue(line != null && line.contains("listening on"), "first line: " + line);
      Matcher url = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+)").matcher(line);
      assertTrue(url.find(), line);

      RawHttp.Reply reply =
          new RawHttp("devtoken")
              .command("GET", url.group(1), "get", "{\"path\":\"//sys/@cluster_name\"}");

      assertEquals(200, reply.status(), reply.text());
      assertEquals("emulator", reply.json().path("value").asText());
    } finally {
      process.destroy();
      assertTrue(process.waitFor(20, TimeUnit.SECONDS), "stops on SIGTERM");
    }
  }
}
