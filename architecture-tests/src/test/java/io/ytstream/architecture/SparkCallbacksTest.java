package io.ytstream.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each of Spark's callbacks into the Spark adapter, on the driver ({@code YtMicroBatchStream}, the
 * streaming writes) and on executors (partition readers, data writers, {@code ForeachWriter}s, the
 * real-time reader, the write job listener), is at most one call of a driving use case plus the
 * translation of Spark's types: the decisions are the application's, so the simulation, which makes
 * the same calls, checks what ships.
 *
 * <p>The rule, over every method of an adapter class that overrides a method of a Spark type (its
 * name and parameter count are a method of one of the class's supertypes in {@code
 * org.apache.spark}), counting the calls it makes itself and those of the private methods of its
 * class it reaches (a decision moved to a private helper is still the callback's):
 *
 * <ul>
 *   <li>it makes at most one call of an instance method of a {@code @DrivingUseCase} class (a
 *       constructor wires a use case, a static method of one computes a value), not counting the
 *       reads of the use case's state after that call (a method of the same class without
 *       parameters that returns something: a task's counts after its commit, a read's row after its
 *       advance);
 *   <li>it calls none of core's decisions (a class of {@code io.ytstream.core} that is not a value:
 *       not a record, an enum, an exception or in {@code core.model}); a callback that would decide
 *       itself goes through a use case.
 * </ul>
 *
 * Methods that override nothing of Spark's (the adapter's own helpers: conversions, messages) are
 * not callbacks and are free; what they call is counted for the callbacks that reach them when they
 * are private.
 */
class SparkCallbacksTest {

  private static final String DRIVING = "io.ytstream.application.DrivingUseCase";
  private static final String CORE = "io.ytstream.core";
  private static final String FIXTURES = "io.ytstream.architecture.fixtures.callbacks";

  private static JavaClasses production;
  private static JavaClasses fixtures;

  @BeforeAll
  static void importClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ytstream.spark", "io.ytstream.application", "io.ytstream.core");
    fixtures =
        new ClassFileImporter()
            .importPackages(FIXTURES, "io.ytstream.application", "io.ytstream.core");
  }

  @Test
  void everySparkCallbackOfTheAdapterIsOneUseCaseCall() {
    assertEquals(List.of(), violations(production, "io.ytstream.spark"));
  }

  @Test
  void theRuleCountsTheCallbacksItShould() {
    Set<String> checked = new TreeSet<>();
    for (JavaClass c : production) {
      if (c.getPackageName().startsWith("io.ytstream.spark")) {
        for (JavaMethod m : callbacks(c)) {
          checked.add(c.getSimpleName() + "." + m.getName());
        }
      }
    }
    for (String callback :
        List.of(
            "YtMicroBatchStream.latestOffset",
            "YtMicroBatchStream.planInputPartitions",
            "YtMicroBatchStream.prepareForRealTimeMode",
            "YtMicroBatchStream.commit",
            "TransactionalStreamingWrite.commit",
            "YtPartitionReader.next",
            "TransactionalDataWriter.write",
            "TransactionalDataWriter.commit",
            "ChunkedDataWriter.write",
            "YtProducerDataWriter.write",
            "TableForeachWriter.process",
            "TableForeachWriter.close",
            "YtRealTimeReader.nextWithTimeout",
            "YtRealTimeReader.getOffset",
            "BatchWriteJobListener.onTaskEnd")) {
      assertEquals(true, checked.contains(callback), callback + " is checked: " + checked);
    }
  }

  @Test
  void theRuleCatchesACallbackThatCallsTwiceOrDecidesItself() {
    assertEquals(
        List.of(
            "DecidesItself.process(java.lang.Object) calls core's decision"
                + " io.ytstream.core.delivery.WriteJobVerdict.committable",
            "DecidesItself.process(java.lang.Object) calls core's decision"
                + " io.ytstream.core.delivery.WriteJobVerdict.of",
            "TwoCalls.commit() calls 2 driving use cases: [BatchWriteJob.taskEnded,"
                + " BatchWriteJob.taskEnded]"),
        violations(fixtures, FIXTURES));
  }

  /** What breaks the rule among the callbacks of classes in {@code pkg}, sorted. */
  private static List<String> violations(JavaClasses classes, String pkg) {
    List<String> out = new ArrayList<>();
    for (JavaClass c : classes) {
      if (!c.getPackageName().startsWith(pkg)) {
        continue;
      }
      for (JavaMethod m : callbacks(c)) {
        String name =
            c.getSimpleName()
                + "."
                + m.getName()
                + "("
                + String.join(
                    ", ", m.getRawParameterTypes().stream().map(JavaClass::getName).toList())
                + ")";
        List<String> useCases = new ArrayList<>();
        String lastUseCase = null;
        for (JavaMethodCall call : reachedCalls(m)) {
          JavaClass owner = call.getTargetOwner();
          boolean instance =
              call.getTarget()
                  .resolveMember()
                  .map(t -> !t.getModifiers().contains(JavaModifier.STATIC))
                  .orElse(true);
          if (owner.isAnnotatedWith(DRIVING) && instance) {
            boolean readAfter =
                lastUseCase != null
                    && lastUseCase.equals(owner.getName())
                    && call.getTarget().getRawParameterTypes().isEmpty()
                    && !call.getTarget().getRawReturnType().getName().equals("void");
            if (!readAfter) {
              useCases.add(owner.getSimpleName() + "." + call.getName());
            }
            lastUseCase = owner.getName();
          } else if (isCoreDecision(owner)) {
            out.add(name + " calls core's decision " + owner.getName() + "." + call.getName());
          }
        }
        if (useCases.size() > 1) {
          out.add(name + " calls " + useCases.size() + " driving use cases: " + useCases);
        }
      }
    }
    out.sort(null);
    return out;
  }

  /** The methods of {@code c} that override a method of one of its Spark supertypes. */
  private static List<JavaMethod> callbacks(JavaClass c) {
    List<JavaClass> spark = new ArrayList<>();
    for (JavaClass s : c.getAllRawSuperclasses()) {
      if (s.getPackageName().startsWith("org.apache.spark")) {
        spark.add(s);
      }
    }
    for (JavaClass s : c.getAllRawInterfaces()) {
      if (s.getPackageName().startsWith("org.apache.spark")) {
        spark.add(s);
      }
    }
    List<JavaMethod> out = new ArrayList<>();
    for (JavaMethod m : c.getMethods()) {
      if (m.getModifiers().contains(JavaModifier.STATIC)
          || m.getModifiers().contains(JavaModifier.SYNTHETIC)
          || m.getModifiers().contains(JavaModifier.BRIDGE)) {
        continue;
      }
      int params = m.getRawParameterTypes().size();
      boolean overrides =
          spark.stream()
              .flatMap(s -> s.getMethods().stream())
              .anyMatch(
                  s ->
                      s.getName().equals(m.getName())
                          && s.getRawParameterTypes().size() == params
                          && !s.getModifiers().contains(JavaModifier.STATIC));
      if (overrides) {
        out.add(m);
      }
    }
    return out;
  }

  /**
   * The calls {@code m} makes, and those of the private methods of its class it reaches, in the
   * order of their lines.
   */
  private static List<JavaMethodCall> reachedCalls(JavaMethod m) {
    List<JavaMethodCall> out = new ArrayList<>();
    Set<JavaMethod> seen = new HashSet<>();
    ArrayDeque<JavaMethod> todo = new ArrayDeque<>(List.of(m));
    while (!todo.isEmpty()) {
      JavaMethod at = todo.pop();
      if (!seen.add(at)) {
        continue;
      }
      List<JavaMethodCall> calls = new ArrayList<>(at.getMethodCallsFromSelf());
      calls.sort((a, b) -> Integer.compare(a.getLineNumber(), b.getLineNumber()));
      for (JavaMethodCall call : calls) {
        if (call.getTargetOwner().equals(m.getOwner())) {
          call.getTarget()
              .resolveMember()
              .filter(t -> t.getModifiers().contains(JavaModifier.PRIVATE))
              .ifPresent(todo::add);
        } else {
          out.add(call);
        }
      }
    }
    return out;
  }

  /** A class of core that decides (not a value: a record, an enum, an exception, a model type). */
  private static boolean isCoreDecision(JavaClass c) {
    return c.getPackageName().startsWith(CORE)
        && !c.getPackageName().startsWith(CORE + ".model")
        && !c.isRecord()
        && !c.isEnum()
        && !c.isAssignableTo(Throwable.class);
  }
}
