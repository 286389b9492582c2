package io.ytstream.simulation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded list of faults. {@link Fault#at} is the occurrence of the fault's event (counted per
 * kind from 0) at which it fires; {@link Fault#arg} picks a partition or a variant. The text form
 * {@code KIND@at:arg,...} is printed with every failure and accepted by {@code --schedule}.
 */
public final class FaultSchedule {

  /** One scheduled fault. */
  public record Fault(SimFault kind, int at, int arg) {
    @Override
    public String toString() {
      return kind.name() + "@" + at + ":" + arg;
    }
  }

  /**
   * The kinds a schedule mixes at random: all but the one drawn on its own and those of producer
   * mode, so adding the producer kinds left the other modes' schedules as they were.
   */
  private static final SimFault[] MIXED = mixed(false);

  /** Producer mode's mix: the others' kinds and the push faults. */
  private static final SimFault[] MIXED_PRODUCER = mixed(true);

  private final List<Fault> faults;

  public FaultSchedule(List<Fault> faults) {
    List<Fault> sorted = new ArrayList<>(faults);
    sorted.sort(
        Comparator.comparing(Fault::kind).thenComparingInt(Fault::at).thenComparingInt(Fault::arg));
    this.faults = List.copyOf(sorted);
  }

  public List<Fault> faults() {
    return faults;
  }

  public int size() {
    return faults.size();
  }

  public boolean has(SimFault kind) {
    for (Fault f : faults) {
      if (f.kind() == kind) {
        return true;
      }
    }
    return false;
  }

  /**
   * The schedule for a seed: up to ten faults, kinds mixed, placed over the expected length of a
   * run of {@code batches} batches. About one seed in eight has no fault at all. A {@link
   * SimFault#STALLED_ADVANCE} is drawn apart from the mix, from a stream of its own, in about one
   * seed in four of the others: its frequency is its own, and whether a seed stalls leaves the mix
   * of the other kinds as it is. {@link SimFault#QUEUE_RECREATED}, {@link SimFault#COMMIT_LOST},
   * (transactional and static table modes) {@link SimFault#SLOW_TASK}, (transactional mode) {@link
   * SimFault#EXECUTOR_MEMORY}, {@link SimFault#QUERY_STOPPED}, {@link SimFault#RESULT_LOST},
   * (transactional and static table modes) {@link SimFault#EXECUTOR_LOST} and (producer mode)
   * {@link SimFault#TASK_KILLED} are drawn the same way, each from a stream of its own.
   */
  public static FaultSchedule generate(long seed, int batches, SimMode mode) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    List<Fault> faults = new ArrayList<>();
    if (random.nextInt(8) == 0) {
      return new FaultSchedule(faults);
    }
    int count = 1 + random.nextInt(10);
    SimFault[] mix = mode == SimMode.PRODUCER ? MIXED_PRODUCER : MIXED;
    for (int i = 0; i < count; i++) {
      SimFault kind = mix[random.nextInt(mix.length)];
      if (kind == SimFault.ROW_LIMIT && mode != SimMode.TRANSACTIONAL) {
        kind = SimFault.CRASH_AFTER_STEP;
      }
      int span =
          switch (kind.event()) {
            case "step" -> batches * 10;
            case "commit" -> batches * (mode == SimMode.TRANSACTIONAL ? 1 : 3) + 2;
            case "task" -> batches * 3;
            case "push" -> batches * 4;
            case "call" -> batches * 25;
            case "zombie call" -> 24;
            default -> 1;
          };
      faults.add(new Fault(kind, random.nextInt(span), random.nextInt(16)));
    }
    SplittableRandom stalls = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
    if (stalls.nextInt(4) == 0) {
      // "advance": the live driver's consumer advances, a few per batch.
      faults.add(
          new Fault(SimFault.STALLED_ADVANCE, stalls.nextInt(batches * 2), stalls.nextInt(16)));
    }
    SplittableRandom recreations = new SplittableRandom(seed ^ 0x7F4A7C159E3779B9L);
    if (recreations.nextInt(8) == 0) {
      // From a stream of its own, so the schedules of every other seed stay as they were.
      faults.add(
          new Fault(
              SimFault.QUEUE_RECREATED,
              recreations.nextInt(batches * 10),
              recreations.nextInt(16)));
    }
    SplittableRandom lostCommits = new SplittableRandom(seed ^ 0x28EFE333B266F103L);
    if (lostCommits.nextInt(4) == 0) {
      // From a stream of its own, as above (and drawn by none of the recorded traces' seeds).
      faults.add(
          new Fault(
              SimFault.COMMIT_LOST,
              lostCommits.nextInt(batches * (mode == SimMode.TRANSACTIONAL ? 1 : 3) + 2),
              lostCommits.nextInt(16)));
    }
    SplittableRandom slowTasks = new SplittableRandom(seed ^ 0x6A09E667F3BCC909L);
    if ((mode == SimMode.TRANSACTIONAL || mode == SimMode.STATIC_TABLE)
        && slowTasks.nextInt(4) == 0) {
      // From a stream of its own, as above; only the batch transaction has a lease to renew.
      faults.add(
          new Fault(SimFault.SLOW_TASK, slowTasks.nextInt(batches * 3), slowTasks.nextInt(16)));
    }
    SplittableRandom memory = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    if (mode == SimMode.TRANSACTIONAL && memory.nextInt(8) == 0) {
      // From a stream of its own, as above; only transactional tasks keep their rows in memory.
      faults.add(
          new Fault(SimFault.EXECUTOR_MEMORY, memory.nextInt(batches * 3), memory.nextInt(16)));
    }
    SplittableRandom stops = new SplittableRandom(seed ^ 0x1F83D9ABFB41BD6BL);
    if (stops.nextInt(8) == 0) {
      // From a stream of its own, as above (drawn by none of the recorded traces' seeds); "driver
      // call": a dozen or so per batch.
      faults.add(new Fault(SimFault.QUERY_STOPPED, stops.nextInt(batches * 12), stops.nextInt(16)));
    }
    SplittableRandom lostExecutors = new SplittableRandom(seed ^ 0x510E527FADE682D1L);
    if ((mode == SimMode.TRANSACTIONAL || mode == SimMode.STATIC_TABLE)
        && lostExecutors.nextInt(4) == 0) {
      // From a stream of its own, as above; only a batch transaction outlives a lost executor.
      faults.add(
          new Fault(
              SimFault.EXECUTOR_LOST,
              lostExecutors.nextInt(batches * 3),
              lostExecutors.nextInt(16)));
    }
    SplittableRandom kills = new SplittableRandom(seed ^ 0x9B05688C2B3E6C1FL);
    if (mode == SimMode.PRODUCER && kills.nextInt(4) == 0) {
      // From a stream of its own, as above; "push": a few per batch.
      faults.add(new Fault(SimFault.TASK_KILLED, kills.nextInt(batches * 4), kills.nextInt(16)));
    }
    SplittableRandom lostResults = new SplittableRandom(seed ^ 0x5BE0CD19137E2179L);
    if (lostResults.nextInt(8) == 0) {
      // From a stream of its own, as above.
      faults.add(
          new Fault(
              SimFault.RESULT_LOST, lostResults.nextInt(batches * 3), lostResults.nextInt(16)));
    }
    return new FaultSchedule(faults);
  }

  private static SimFault[] mixed(boolean producer) {
    List<SimFault> kinds = new ArrayList<>();
    for (SimFault kind : SimFault.values()) {
      boolean push = kind.event().equals("push");
      if (kind != SimFault.STALLED_ADVANCE
          && kind != SimFault.QUEUE_RECREATED
          && kind != SimFault.COMMIT_LOST
          && kind != SimFault.SLOW_TASK
          && kind != SimFault.EXECUTOR_MEMORY
          && kind != SimFault.QUERY_STOPPED
          && kind != SimFault.EXECUTOR_LOST
          && kind != SimFault.TASK_KILLED
          && kind != SimFault.RESULT_LOST
          && (producer || !push)) {
        kinds.add(kind);
      }
    }
    return kinds.toArray(new SimFault[0]);
  }

  /** Parses the text form; the empty string is the empty schedule. */
  public static FaultSchedule parse(String text) {
    List<Fault> faults = new ArrayList<>();
    if (!text.isBlank()) {
      for (String part : text.split(",", -1)) {
        int atSign = part.indexOf('@');
        int colon = part.indexOf(':');
        if (atSign < 0 || colon < atSign) {
          throw new IllegalArgumentException("fault '" + part + "' is not KIND@at:arg");
        }
        faults.add(
            new Fault(
                SimFault.valueOf(part.substring(0, atSign).trim()),
                Integer.parseInt(part.substring(atSign + 1, colon)),
                Integer.parseInt(part.substring(colon + 1).trim())));
      }
    }
    return new FaultSchedule(faults);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (Fault f : faults) {
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(f);
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FaultSchedule other && faults.equals(other.faults);
  }

  @Override
  public int hashCode() {
    return faults.hashCode();
  }
}
