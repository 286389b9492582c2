package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class QueueIdTest {

  @Test
  void keyFormat() {
    QueueId q = QueueId.of("primary", "//home/q");
    assertEquals("primary", q.cluster());
    assertEquals(YPath.of("//home/q"), q.path());
    assertEquals("primary://home/q", q.key());
    assertEquals("primary://home/q", q.toString());
  }

  @Test
  void parseKeySplitsAtTheFirstColon() {
    assertEquals(QueueId.of("c", "//a:b"), QueueId.parseKey("c://a:b"));
    assertEquals(QueueId.of("hahn", "//"), QueueId.parseKey("hahn://"));
  }

  @Test
  void keyRoundTripRandomized() {
    String clusterChars = "abcxyz019-_.";
    String pathChars = "abc/:-_.\"\\{}\u00e9\u0001";
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      StringBuilder cluster = new StringBuilder();
      int clusterLength = 1 + random.nextInt(8);
      for (int i = 0; i < clusterLength; i++) {
        cluster.append(clusterChars.charAt(random.nextInt(clusterChars.length())));
      }
      StringBuilder path = new StringBuilder("//");
      int pathLength = random.nextInt(12);
      for (int i = 0; i < pathLength; i++) {
        path.append(pathChars.charAt(random.nextInt(pathChars.length())));
      }
      if (path.length() > 2 && path.charAt(path.length() - 1) == '/') {
        path.append('x');
      }
      QueueId q = QueueId.of(cluster.toString(), path.toString());
      assertEquals(q, QueueId.parseKey(q.key()), "seed=" + seed);
      assertEquals(cluster + ":" + path, q.key(), "seed=" + seed);
    }
  }

  @Test
  void parseKeyRejectsKeysWithoutCluster() {
    for (String key : List.of("", "//home/q", ":", "://home/q", "noColonAtAll")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> QueueId.parseKey(key), key);
      assertEquals(
          "queue key '" + key + "' is not of the form <cluster>:<path>, e.g. primary://home/q",
          e.getMessage());
    }
  }

  @Test
  void parseKeyRejectsBadParts() {
    assertThrows(IllegalArgumentException.class, () -> QueueId.parseKey("c:home/q"));
    assertThrows(IllegalArgumentException.class, () -> QueueId.parseKey("c:"));
    assertThrows(IllegalArgumentException.class, () -> QueueId.parseKey("a b://q"));
    assertThrows(IllegalArgumentException.class, () -> QueueId.parseKey("a/b://q"));
  }

  @Test
  void clusterValidation() {
    assertEquals(
        "cluster name must not be empty",
        assertThrows(IllegalArgumentException.class, () -> QueueId.of("", "//q")).getMessage());
    assertEquals(
        "cluster name must not be empty",
        assertThrows(IllegalArgumentException.class, () -> new QueueId(null, YPath.of("//q")))
            .getMessage());
    for (String bad : List.of("a:b", "a/b", "a b", " ", "a\tb", ":", "/", "ab:")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> QueueId.of(bad, "//q"), bad);
      assertEquals(
          "cluster name '" + bad + "' must not contain ':', '/' or white space", e.getMessage());
    }
    NullPointerException e = assertThrows(NullPointerException.class, () -> new QueueId("c", null));
    assertEquals("path", e.getMessage());
  }

  @Test
  void orderIsClusterThenPath() {
    List<QueueId> sorted =
        List.of(
            QueueId.of("a", "//a"),
            QueueId.of("a", "//b"),
            QueueId.of("b", "//a"),
            QueueId.of("b", "//b"));
    for (int i = 0; i < sorted.size(); i++) {
      for (int j = 0; j < sorted.size(); j++) {
        assertEquals(
            Integer.signum(Integer.compare(i, j)),
            Integer.signum(sorted.get(i).compareTo(sorted.get(j))),
            i + " vs " + j);
      }
    }
    List<QueueId> shuffled = new ArrayList<>(List.of(sorted.get(3), sorted.get(1)));
    shuffled.add(sorted.get(2));
    shuffled.add(sorted.get(0));
    shuffled.sort(null);
    assertEquals(sorted, shuffled);
    assertTrue(QueueId.of("a", "//z").compareTo(QueueId.of("b", "//a")) < 0);
  }
}
