package io.ytstream.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The dependency rules of the architecture note, as functions of package roots so that tests can
 * show each rule failing on a deliberately broken fixture before trusting it on the real code.
 */
final class ArchitectureRules {

  private ArchitectureRules() {}

  /** A module (core-domain, yt-types) depends on nothing outside {@code java.*} and itself. */
  static ArchRule dependsOnJdkOnly(String modulePackage) {
    return classes()
        .that()
        .resideInAPackage(modulePackage + "..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", modulePackage + "..")
        .as(modulePackage + " depends on the JDK only")
        .allowEmptyShould(false);
  }

  /**
   * Core holds no codec: no class named for a wire format ({@code *Json*}, {@code *Yson*}) and no
   * use of the type library, so what other runtimes follow is the protocol's values and decisions,
   * not its encodings.
   */
  static ArchRule holdsNoCodec(String corePackage, String typesPackage) {
    return noClasses()
        .that()
        .resideInAPackage(corePackage + "..")
        .should()
        .haveSimpleNameContaining("Json")
        .orShould()
        .haveSimpleNameContaining("Yson")
        .orShould()
        .dependOnClassesThat()
        .resideInAPackage(typesPackage + "..")
        .as("core-domain holds no codec (no *Json*/*Yson* class, no use of yt-types)");
  }

  /** Ports depend on core, the type library and the JDK only. */
  static ArchRule portsDependOnCoreOnly(String portsPackage, String... allowed) {
    return classes()
        .that()
        .resideInAPackage(portsPackage + "..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(withJdk(portsPackage, allowed))
        .as("ports depend on core-domain, yt-types and the JDK only");
  }

  /** No wall clock, no global or unseeded random source, no thread-local state in core code. */
  static ArchRule noWallClockOrGlobalRandom(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(withSubpackages(packages))
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(Math.class, "random")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.LocalDateTime.class, "now")
        .orShould()
        .callMethod(java.time.LocalDate.class, "now")
        .orShould()
        .callMethod(java.time.ZonedDateTime.class, "now")
        .orShould()
        .callMethod(java.time.OffsetDateTime.class, "now")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.Clock.class, "systemDefaultZone")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .orShould()
        .callConstructor(java.util.Random.class)
        .orShould()
        .callConstructor(java.util.Date.class)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.security.SecureRandom")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.ThreadLocal")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.InheritableThreadLocal")
        .as("core code takes a clock and seeds as inputs and keeps no thread-local state");
  }

  /**
   * Hash-ordered collections may not decide anything in core code: their iteration order is not
   * defined. Sorted or insertion-ordered collections are used instead.
   */
  static ArchRule noHashOrderedCollections(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(withSubpackages(packages))
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.util.HashMap")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.util.HashSet")
        .as("core code iterates in a defined order (no HashMap/HashSet)");
  }

  /** No Spark, Scala, Hadoop, Jackson, Guava or HTTP type in core or ports. */
  static ArchRule noInfrastructureTypes(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(withSubpackages(packages))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.apache.spark..",
            "scala..",
            "org.apache.hadoop..",
            "com.fasterxml.jackson..",
            "com.google.common..",
            "java.net.http..",
            "com.sun.net.httpserver..")
        .as("no Spark, Scala, Hadoop, Jackson, Guava or HTTP type in core or ports");
  }

  /** The application layer depends on core, ports, the type library and the JDK only. */
  static ArchRule applicationDependsOnCoreAndPortsOnly(
      String applicationPackage, String... allowed) {
    return classes()
        .that()
        .resideInAPackage(applicationPackage + "..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(withJdk(applicationPackage, allowed))
        .as(
            "application depends on core-domain, ports, yt-types and the JDK only (no Spark,"
                + " Hadoop, HTTP)")
        .allowEmptyShould(false);
  }

  /** {@code java..}, {@code own..} and each of {@code allowed} with its subpackages. */
  private static String[] withJdk(String own, String... allowed) {
    String[] packages = new String[allowed.length + 2];
    packages[0] = "java..";
    packages[1] = own + "..";
    for (int i = 0; i < allowed.length; i++) {
      packages[i + 2] = allowed[i] + "..";
    }
    return packages;
  }

  /**
   * An adapter translates; the decisions the use cases own (planning, recovery, the delivery state
   * machines, the commit-lag rule) are not called from it directly.
   */
  static ArchRule makesNoProtocolDecisions(String adapterPackage, String... decisionClasses) {
    return noClasses()
        .that()
        .resideInAPackage(adapterPackage + "..")
        .should()
        .dependOnClassesThat()
        .haveNameMatching(anyOf(decisionClasses))
        .as(adapterPackage + " calls the application's use cases, not core's protocol decisions")
        .allowEmptyShould(true);
  }

  private static String anyOf(String... classNames) {
    StringBuilder regex = new StringBuilder();
    for (String name : classNames) {
      regex.append(regex.length() == 0 ? "" : "|").append(java.util.regex.Pattern.quote(name));
    }
    return regex.toString();
  }

  /** One adapter never depends on another (selection goes through the connector SPI). */
  static ArchRule adapterIsolated(String adapterPackage, String... otherAdapters) {
    return noClasses()
        .that()
        .resideInAPackage(adapterPackage + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(withSubpackages(otherAdapters))
        .as(adapterPackage + " does not depend on another adapter")
        .allowEmptyShould(true);
  }

  private static String[] withSubpackages(String... packages) {
    String[] result = new String[packages.length];
    for (int i = 0; i < packages.length; i++) {
      result[i] = packages[i] + "..";
    }
    return result;
  }

  /**
   * The packages directly under {@code root} form no cycle, so each concern (source, sink, types,
   * configuration...) can be read, and changed, without the ones that build on it.
   */
  static ArchRule packagesFreeOfCycles(String root) {
    return slices()
        .matching(root + ".(*)..")
        .should()
        .beFreeOfCycles()
        .as("the packages under " + root + " form no cycle");
  }

  /** Classes in {@code from} never use classes in {@code to}, for the reason given. */
  static ArchRule doesNotDependOn(String from, String to, String reason) {
    return noClasses()
        .that()
        .resideInAPackage(from + "..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(to + "..")
        .as(from + " does not depend on " + to + ": " + reason)
        .allowEmptyShould(false);
  }

  /**
   * Each named decision is a class of {@code decisionPackage} (simple names, one rule each): a
   * decision moved elsewhere, or renamed without the rule, fails. Which package holds which kind of
   * decision is then stated once, here, and readers of another runtime find each where the
   * architecture note says.
   */
  static ArchRule decisionsResideIn(String decisionPackage, String... simpleNames) {
    if (simpleNames.length == 0) {
      throw new IllegalArgumentException("name at least one decision of " + decisionPackage);
    }
    List<ArchRule> rules = new ArrayList<>();
    for (String name : simpleNames) {
      rules.add(
          classes()
              .that()
              .haveSimpleName(name)
              .should()
              .resideInAPackage(decisionPackage)
              .as(name + " is a decision of " + decisionPackage)
              .allowEmptyShould(false));
    }
    return CompositeArchRule.of(rules)
        .as(decisionPackage + " holds " + String.join(", ", simpleNames));
  }

  /**
   * A use case asks the ports for a decision's inputs, in order, and calls the decision; a pure
   * decision (a holder of static functions over values: no instance state, no constructor but
   * private ones, no use of a port or a codec) is core's, where other runtimes follow it and plain
   * JUnit tests it. {@code stepsAndCodecs} are the packages whose use makes a class a step or a
   * codec (the ports; the type library and the application's text forms, which core may not hold);
   * {@code allowed} names helpers (by simple name) that are not protocol decisions, each with its
   * reason where the rule is used.
   */
  static ArchRule holdsNoPureDecisions(
      String applicationPackage, List<String> stepsAndCodecs, String... allowed) {
    Set<String> allowedNames = Set.of(allowed);
    ArchCondition<JavaClass> notAPureDecision =
        new ArchCondition<>("use a port or a codec, or hold state (a pure decision is core's)") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            if (isPureFunctionHolder(c, stepsAndCodecs)
                && !allowedNames.contains(c.getSimpleName())) {
              events.add(
                  SimpleConditionEvent.violated(
                      c,
                      c.getName()
                          + " holds only static functions and uses none of "
                          + stepsAndCodecs
                          + ": a pure decision, which belongs in core-domain"));
            }
          }
        };
    return classes()
        .that()
        .resideInAPackage(applicationPackage + "..")
        .and()
        .areTopLevelClasses()
        .should(notAPureDecision)
        .as(applicationPackage + " holds steps over ports and codecs, not pure decisions")
        .allowEmptyShould(false);
  }

  /**
   * A class (not an interface, enum, record or throwable) with no instance field, no constructor
   * but private ones, a non-private static method, and no use of {@code stepsAndCodecs}.
   */
  private static boolean isPureFunctionHolder(JavaClass c, List<String> stepsAndCodecs) {
    if (c.isInterface() || c.isEnum() || c.isRecord() || c.isAnnotation()) {
      return false;
    }
    if (c.isAssignableTo(Throwable.class)) {
      return false;
    }
    for (JavaField field : c.getFields()) {
      if (!field.getModifiers().contains(JavaModifier.STATIC)) {
        return false;
      }
    }
    for (JavaConstructor constructor : c.getConstructors()) {
      if (!constructor.getModifiers().contains(JavaModifier.PRIVATE)) {
        return false;
      }
    }
    boolean staticFunction = false;
    for (JavaMethod method : c.getMethods()) {
      Set<JavaModifier> modifiers = method.getModifiers();
      if (modifiers.contains(JavaModifier.STATIC)
          && !modifiers.contains(JavaModifier.PRIVATE)
          && !modifiers.contains(JavaModifier.SYNTHETIC)) {
        staticFunction = true;
      }
    }
    if (!staticFunction) {
      return false;
    }
    for (Dependency dependency : c.getDirectDependenciesFromSelf()) {
      String target = dependency.getTargetClass().getPackageName();
      for (String pkg : stepsAndCodecs) {
        if (target.equals(pkg) || target.startsWith(pkg + ".")) {
          return false;
        }
      }
    }
    return true;
  }
}
