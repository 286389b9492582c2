package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What the built jar holds: ytstream's classes and service entries, and no class of a library that
 * Spark ships (Spark, Scala, Hadoop, Jackson, Guava, SLF4J, Log4j), which would clash with Spark's
 * own; and the pom that goes with it makes {@code --packages} fetch nothing more.
 */
class ConnectorJarIT {

  private static final Path JAR = Path.of(System.getProperty("connector.jar", "missing"));

  @Test
  void holdsOnlyYtstreamClasses() throws IOException {
    assertTrue(Files.isRegularFile(JAR), "package builds the connector jar: " + JAR);
    List<String> foreign = new ArrayList<>();
    int classes = 0;
    try (JarFile jar = new JarFile(JAR.toFile())) {
      for (JarEntry entry : jar.stream().toList()) {
        String name = entry.getName();
        if (name.endsWith(".class")) {
          classes++;
          if (!name.startsWith("io/ytstream/")) {
            foreign.add(name);
          }
        }
      }
      assertEquals(List.of(), foreign, "classes from outside ytstream in " + JAR);
      for (String kept :
          List.of(
              "io/ytstream/spark/YtDataSource.class",
              "io/ytstream/spark/checkpoint/YtFileSystem.class",
              "io/ytstream/ytsaurus/YtsaurusConnector.class",
              "io/ytstream/application/PlanMicroBatch.class",
              "io/ytstream/ports/spi/ClusterConnectors.class",
              "ytstream-yt-filesystem.xml")) {
        assertTrue(jar.getEntry(kept) != null, kept + " is in " + JAR);
      }
      assertTrue(
          jar.stream().noneMatch(e -> e.getName().startsWith("io/ytstream/inmemory/")),
          "the in-memory adapter is for tests and stays out");
    }
    assertTrue(classes > 100, "ytstream's modules are inside: " + classes + " classes");
  }

  @Test
  void registersTheSourceTheFileSystemAndTheHttpAdapter() throws IOException {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      assertEquals(
          List.of("io.ytstream.spark.YtDataSource"),
          service(jar, "org.apache.spark.sql.sources.DataSourceRegister"));
      assertEquals(
          List.of("io.ytstream.spark.checkpoint.YtFileSystem"),
          service(jar, "org.apache.hadoop.fs.FileSystem"));
      assertEquals(
          List.of("io.ytstream.ytsaurus.YtsaurusConnector"),
          service(jar, "io.ytstream.ports.spi.ClusterConnector"));
    }
  }

  /** Every dependency left in the published pom is provided by Spark: Ivy fetches none. */
  @Test
  void thePublishedPomNeedsNothingBeyondSpark() throws Exception {
    Path pom = Path.of(System.getProperty("connector.reducedPom", "missing"));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    Element dependencies = (Element) doc.getElementsByTagName("dependencies").item(0);
    List<String> fetched = new ArrayList<>();
    List<String> provided = new ArrayList<>();
    if (dependencies != null) {
      NodeList list = dependencies.getElementsByTagName("dependency");
      for (int i = 0; i < list.getLength(); i++) {
        Element dep = (Element) list.item(i);
        String coordinate = text(dep, "groupId") + ":" + text(dep, "artifactId");
        String scope = text(dep, "scope");
        if (scope.equals("provided") || scope.equals("test")) {
          provided.add(coordinate);
        } else {
          fetched.add(coordinate + ":" + scope);
        }
      }
    }
    assertEquals(List.of(), fetched, "dependencies --packages would fetch, in " + pom);
    assertTrue(provided.contains("org.apache.spark:spark-sql_2.13"), provided.toString());
  }

  private static List<String> service(JarFile jar, String name) throws IOException {
    JarEntry entry = jar.getJarEntry("META-INF/services/" + name);
    assertTrue(entry != null, "META-INF/services/" + name + " is in " + JAR);
    String text = new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    return text.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
  }

  private static String text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
  }
}
