package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jars of one Spark version's distribution: the class path file the build resolved from
 * spark-sql_2.13's own pom ({@code src/test/spark-distribution/pom.xml}), passed in by failsafe.
 */
record SparkDistribution(String version, List<Path> jars) {

  /** The distribution named by system properties {@code spark.<which>.version/.classpath}. */
  static SparkDistribution fromBuild(String which) throws IOException {
    String version = System.getProperty("spark." + which + ".version");
    String file = System.getProperty("spark." + which + ".classpath");
    assertTrue(
        version != null && file != null,
        "run through failsafe (mvn verify), which sets spark." + which + ".version/.classpath");
    List<Path> jars = new ArrayList<>();
    for (String entry : Files.readString(Path.of(file)).trim().split(File.pathSeparator)) {
      jars.add(Path.of(entry));
    }
    SparkDistribution distribution = new SparkDistribution(version, List.copyOf(jars));
    assertTrue(
        distribution.has("spark-core_2.13-" + version + ".jar"),
        "Spark " + version + "'s core is on its class path: " + file);
    assertFalse(
        jars.stream().anyMatch(j -> j.toString().contains("/io/ytstream/")),
        "Spark's jars only, none of ytstream's: " + file);
    return distribution;
  }

  boolean has(String fileName) {
    return jars.stream().anyMatch(j -> j.getFileName().toString().equals(fileName));
  }
}
