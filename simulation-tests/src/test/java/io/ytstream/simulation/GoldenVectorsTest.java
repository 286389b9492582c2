package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.types.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every golden vector against core-domain (and every recorded trace against the runtime),
 * so the files can never drift from the code.
 */
class GoldenVectorsTest {

  static Path dir() {
    return Path.of(System.getProperty("simulation.vectors", "vectors"));
  }

  static List<String> kinds() {
    return CoreVectors.KINDS;
  }

  @SuppressWarnings("unchecked")
  @ParameterizedTest
  @MethodSource("kinds")
  void everyCaseMatchesCore(String kind) throws IOException {
    Map<String, Object> file =
        (Map<String, Object>)
            JsonReader.read(
                Files.readString(dir().resolve(kind + ".json"), StandardCharsets.UTF_8));
    assertEquals(kind, file.get("kind"));
    List<Object> cases = (List<Object>) file.get("cases");
    assertTrue(cases.size() >= 10, kind + " has cases");
    for (Object o : cases) {
      Map<String, Object> c = (Map<String, Object>) o;
      assertEquals(
          c.get("expected"),
          CoreVectors.evaluate(kind, (Map<String, Object>) c.get("input")),
          kind + " " + c.get("name"));
    }
  }

  @Test
  void theFilesAreExactlyWhatTheExporterWritesToday() throws IOException {
    for (String kind : CoreVectors.KINDS) {
      assertEquals(
          VectorExporter.fileText(VectorExporter.vectorFile(kind)),
          Files.readString(dir().resolve(kind + ".json"), StandardCharsets.UTF_8),
          kind + ": regenerate with VectorExporter");
    }
  }

  @Test
  void theVectorsCoverEveryDecision() throws IOException {
    String all;
    try (Stream<Path> files = Files.list(dir())) {
      StringBuilder text = new StringBuilder();
      for (Path p : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        text.append(Files.readString(p, StandardCharsets.UTF_8));
      }
      all = text.toString();
    }
    for (String decision :
        List.of(
            "\"COMMIT\"",
            "\"ALREADY_APPLIED\"",
            "\"FENCED\"",
            "\"RETRY_LATER\"",
            "\"UNKNOWN\"",
            "\"FAILED\"",
            "\"COMMITTED\"",
            "\"START_FRESH\"",
            "\"CONTINUE\"",
            "\"RERUN\"",
            "\"DAMAGED_CHECKPOINT\"",
            "\"DATA_LOSS\"",
            "\"OFFSET_BEYOND_END\"",
            "\"ADVANCING\"")) {
      assertTrue(all.contains(decision), "some vector expects " + decision);
    }
  }

  @SuppressWarnings("unchecked")
  @Test
  void recordedTracesReplayStepForStep() throws IOException {
    List<String> checked = new ArrayList<>();
    for (TraceVectors.Case c : TraceVectors.CASES) {
      Map<String, Object> file =
          (Map<String, Object>)
              JsonReader.read(
                  Files.readString(
                      dir().resolve("traces").resolve(c.fileName()), StandardCharsets.UTF_8));
      Map<String, Object> now = TraceVectors.record(c);
      assertEquals(file.get("steps"), now.get("steps"), c.fileName());
      assertEquals(file.get("final"), now.get("final"), c.fileName());
      assertEquals(List.of(), ((Map<String, Object>) now.get("final")).get("violations"));
      checked.add(c.fileName());
    }
    assertEquals(TraceVectors.CASES.size(), checked.size());
  }
}
