package io.ytstream.ports.contract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.NodeStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract of {@code CheckpointStore}: the Cypress subset Spark checkpoints rely on. */
public abstract class CheckpointStoreContract extends PortContract {

  private CheckpointStore store() {
    return cluster().checkpoints();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  @Test
  void createDirectoriesMakesParentsAndIsIdempotent() {
    YPath deep = path("cp").child("offsets").child("deeper");

    store().createDirectories(deep);
    store().createDirectories(deep);

    assertTrue(store().status(path("cp")).orElseThrow().directory());
    assertTrue(store().status(deep).orElseThrow().directory());
    assertEquals(List.of("deeper"), store().list(path("cp").child("offsets")));
  }

  @Test
  void writeThenReadAFile() {
    YPath dir = path("cp");
    store().createDirectories(dir);
    YPath file = dir.child("0");

    store().writeFile(file, bytes("v1\n{}"), false);

    assertArrayEquals(bytes("v1\n{}"), store().readFile(file));
    NodeStatus status = store().status(file).orElseThrow();
    assertFalse(status.directory());
    assertEquals(5, status.length());
    assertEquals(file, status.path());
  }

  @Test
  void emptyFilesAreFiles() {
    store().createDirectories(path("cp"));
    YPath file = path("cp").child("empty");

    store().writeFile(file, new byte[0], false);

    assertArrayEquals(new byte[0], store().readFile(file));
    assertEquals(0, store().status(file).orElseThrow().length());
  }

  @Test
  void createIfAbsentFailsWith501AndKeepsTheFirstContent() {
    store().createDirectories(path("cp"));
    YPath file = path("cp").child("0");
    store().writeFile(file, bytes("first"), false);

    assertYtError(
        YtErrorCode.ALREADY_EXISTS, () -> store().writeFile(file, bytes("second"), false));
    assertArrayEquals(bytes("first"), store().readFile(file));
  }

  @Test
  void overwriteReplacesAndUpdatesTheModificationTime() {
    store().createDirectories(path("cp"));
    YPath file = path("cp").child("0");
    store().writeFile(file, bytes("first"), false);
    long before = store().status(file).orElseThrow().modificationTimeMillis();

    fixture.elapse(Duration.ofMillis(1500));
    store().writeFile(file, bytes("second!"), true);

    assertArrayEquals(bytes("second!"), store().readFile(file));
    NodeStatus after = store().status(file).orElseThrow();
    assertEquals(7, after.length());
    assertTrue(
        after.modificationTimeMillis() > before,
        "modification time moves: " + before + " -> " + after.modificationTimeMillis());
  }

  @Test
  void writeIntoAMissingDirectoryFailsWith500() {
    var error =
        assertYtError(
            YtErrorCode.RESOLVE_ERROR,
            () -> store().writeFile(path("nowhere").child("0"), bytes("x"), false));
    assertTrue(error.getMessage().contains("Error resolving path"), error.getMessage());
  }

  @Test
  void readingAMissingFileFailsWith500() {
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> store().readFile(path("absent")));
  }

  @Test
  void renameMovesAFile() {
    store().createDirectories(path("cp"));
    YPath tmp = path("cp").child(".0.tmp");
    YPath target = path("cp").child("0");
    store().writeFile(tmp, bytes("offsets"), false);

    store().rename(tmp, target);

    assertArrayEquals(bytes("offsets"), store().readFile(target));
    assertTrue(store().status(tmp).isEmpty());
    assertEquals(List.of("0"), store().list(path("cp")));
  }

  @Test
  void renameOntoAnExistingTargetFailsWith501AndChangesNothing() {
    store().createDirectories(path("cp"));
    YPath tmp = path("cp").child(".0.tmp");
    YPath target = path("cp").child("0");
    store().writeFile(target, bytes("winner"), false);
    store().writeFile(tmp, bytes("loser"), false);

    assertYtError(YtErrorCode.ALREADY_EXISTS, () -> store().rename(tmp, target));

    assertArrayEquals(bytes("winner"), store().readFile(target));
    assertArrayEquals(bytes("loser"), store().readFile(tmp));
  }

  @Test
  void renameOfAMissingSourceFailsWith500() {
    store().createDirectories(path("cp"));

    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () -> store().rename(path("cp").child("absent"), path("cp").child("0")));
  }

  @Test
  void renameIntoAMissingDirectoryFailsWith500() {
    store().createDirectories(path("cp"));
    YPath file = path("cp").child("0");
    store().writeFile(file, bytes("x"), false);

    assertYtError(
        YtErrorCode.RESOLVE_ERROR, () -> store().rename(file, path("nowhere").child("0")));
    assertArrayEquals(bytes("x"), store().readFile(file));
  }

  @Test
  void renameMovesADirectoryWithItsChildren() {
    store().createDirectories(path("a").child("sub"));
    store().writeFile(path("a").child("sub").child("f"), bytes("x"), false);

    store().rename(path("a"), path("b"));

    assertArrayEquals(bytes("x"), store().readFile(path("b").child("sub").child("f")));
    assertTrue(store().status(path("a")).isEmpty());
  }

  @Test
  void listIsSortedByName() {
    YPath dir = path("cp");
    store().createDirectories(dir);
    for (String name : List.of("b", "10", "2", "a", "1")) {
      store().writeFile(dir.child(name), bytes(name), false);
    }
    store().createDirectories(dir.child("sub"));

    assertEquals(List.of("1", "10", "2", "a", "b", "sub"), store().list(dir));
  }

  @Test
  void listOfAMissingDirectoryFailsWith500() {
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> store().list(path("absent")));
  }

  @Test
  void deleteReportsWhetherTheNodeExisted() {
    store().createDirectories(path("cp"));
    YPath file = path("cp").child("0");
    store().writeFile(file, bytes("x"), false);

    assertTrue(store().delete(file, false));
    assertFalse(store().delete(file, false));
    assertTrue(store().status(file).isEmpty());
  }

  @Test
  void deletingANonEmptyDirectoryNeedsRecursive() {
    YPath dir = path("cp");
    store().createDirectories(dir.child("offsets"));
    store().writeFile(dir.child("offsets").child("0"), bytes("x"), false);

    assertThrows(YtException.class, () -> store().delete(dir, false));
    assertTrue(store().status(dir.child("offsets").child("0")).isPresent());

    assertTrue(store().delete(dir, true));
    assertTrue(store().status(dir).isEmpty());
    assertTrue(store().status(dir.child("offsets").child("0")).isEmpty());
  }

  @Test
  void deletingAnEmptyDirectoryNeedsNoRecursive() {
    store().createDirectories(path("empty"));

    assertTrue(store().delete(path("empty"), false));
  }

  @Test
  void statusOfAMissingNodeIsEmpty() {
    assertTrue(store().status(path("absent")).isEmpty());
    assertTrue(store().status(path("absent").child("deeper")).isEmpty());
  }
}
