package io.tokenpulse.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of docs/architecture.md, checked on the main classes of every module (cli
 * depends on all of them, so its test class path holds them all): cli -> runner -> producer and
 * streams-aggregator, which meet only through Kafka; nothing but cli uses the runner. Maven's module graph already
 * forbids most edges; these rules also catch one added to a pom by mistake. The bench/ modules are
 * outside the reactor and may use any module but cli.
 */
class DependencyRulesTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tokenpulse");
    }

    @Test
    void theLoadGeneratorAndTheAggregatorMeetOnlyThroughKafka() {
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.producer..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tokenpulse.aggregator.."));
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.aggregator..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tokenpulse.producer.."));
    }

    @Test
    void theRunnerTakesSettingsNotCommandLineOptions() {
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("picocli..", "io.tokenpulse.cli.."));
    }

    @Test
    void onlyTheCommandLineRunsBenchmarks() {
        // cli -> runner -> producer and aggregator: the runner is the one place that joins the two
        check(noClasses()
                .that()
                .resideOutsideOfPackages("io.tokenpulse.runner..", "io.tokenpulse.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tokenpulse.runner.."));
        // the simulator and the charts are the commands' to start and draw, not a run's
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.tokenpulse.simulator..", "io.tokenpulse.charts.."));
    }

    @Test
    void theSimulatorSharesNoCodeWithTheClientItTests() {
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.simulator..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.tokenpulse.producer..", "io.tokenpulse.aggregator.."));
    }

    @Test
    void nothingDependsOnTheCommandLine() {
        check(noClasses()
                .that()
                .resideOutsideOfPackage("io.tokenpulse.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tokenpulse.cli.."));
    }

    @Test
    void schemasAndTokenizersDependOnNothingOfOurs() {
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.schemas..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.tokenpulse.producer..",
                        "io.tokenpulse.aggregator..",
                        "io.tokenpulse.simulator..",
                        "io.tokenpulse.platform..",
                        "io.tokenpulse.charts..",
                        "io.tokenpulse.tokenizers..",
                        "io.tokenpulse.runner..",
                        "io.tokenpulse.cli.."));
        check(noClasses()
                .that()
                .resideInAPackage("io.tokenpulse.tokenizers..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.tokenpulse.producer..",
                        "io.tokenpulse.aggregator..",
                        "io.tokenpulse.simulator..",
                        "io.tokenpulse.platform..",
                        "io.tokenpulse.charts..",
                        "io.tokenpulse.schemas..",
                        "io.tokenpulse.runner..",
                        "io.tokenpulse.cli.."));
    }

    @Test
    void chartsAndPlatformReadOnlyTheSchemas() {
        check(noClasses()
                .that()
                .resideInAnyPackage("io.tokenpulse.charts..", "io.tokenpulse.platform..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.tokenpulse.producer..",
                        "io.tokenpulse.aggregator..",
                        "io.tokenpulse.simulator..",
                        "io.tokenpulse.tokenizers.."));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }
}
