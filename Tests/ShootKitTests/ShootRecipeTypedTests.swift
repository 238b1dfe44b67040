import Exposure
import Shooting
import Testing

@testable import ShootKit

/// The bracket as asked crosses between its typed form (`SeriesRecord.Base`) and its recorded form (`ShootRecipe`)
/// in one place, and back unchanged.
@Suite struct ShootRecipeTypedTests {
    static let base = SeriesRecord.Base(
        shadow: ShutterSpeed(numerator: 1, denominator: 4), highlight: ShutterSpeed(numerator: 1, denominator: 1000),
        frames: 5, spacing: EVAmount(sixths: 8), scale: .third, dedupe: true, order: .slowFirst)

    @Test func aBaseIsRecordedAsTheLabelsPeopleReadAndTypedBackTheSame() {
        let recipe = ShootRecipe(Self.base, linkShared: true)
        #expect(recipe.shadow == "1/4" && recipe.highlight == "1/1000" && recipe.spacing == "1.3")
        #expect(recipe.scale == "third" && recipe.order == "slow-first" && recipe.dedupe && recipe.linkShared)
        #expect(recipe.base == Self.base)
        #expect(recipe.readings?.shadow == Self.base.shadow && recipe.readings?.highlight == Self.base.highlight)
    }

    @Test func aHandEditedLabelIsNoBase() {
        var recipe = ShootRecipe(Self.base, linkShared: false)
        recipe.order = "sideways"
        #expect(recipe.base == nil)
        recipe.scale = "quarter"
        #expect(recipe.shutterScale == .third)
    }
}
