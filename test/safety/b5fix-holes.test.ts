/**
 * The publishing and deleting verbs of programs a family already knows, which the fifth fresh
 * battery (fresh-battery5.ts) found allowed: a known program's destroying verbs its family's check
 * now names, build tools' own publishing goals, and app stores and model hubs.
 * Every row pairs an everyday command that must pass silently with a dangerous neighbour the same
 * fix must catch. The context is context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, testAsks, testHoles } from './context.ts';

/** Rows of the infra family, asked by default: [an everyday command that passes, a neighbour a person is asked about]. */
const ASKED: Record<string, ReadonlyArray<readonly [string, string]>> = {
  // a program the infra check knows (supabase: `db reset`) has its other destroying verbs named there too
  "a known program's other deleting verbs are named by its family's check": [
    ['supabase projects list', 'supabase projects delete abcdefghijkl'],
    ['supabase start', 'npx supabase projects delete abcdefghijkl'],
    ['supabase branches list', 'supabase branches delete feat-login'],
    ['supabase db diff -f add_profiles', 'supabase branches delete 3f2e --project-ref abcdefghijkl'],
    ['terraform workspace select prod', 'terraform workspace delete prod'],
    ['terraform workspace new dev', 'tofu workspace delete staging'],
    ['terraform state list', 'terragrunt destroy-all'],
  ],
};

testAsks(ASKED);

testHoles({
  // a build tool's built-in goal or task that uploads to a public registry
  "build tools' own publishing goals": [
    ['pants test ::', 'pants publish ::'],
    ['pants package src/python/app:pex', 'pants package publish src/python/app:dist'],
    ['sbt publishLocal', 'sbt publishSigned'],
    ['sbt +publishM2', 'sbt +publishSigned sonatypeBundleRelease'],
    ['sbt "project core" test', 'sbt "project core" publish'],
    ['mill __.publishLocal', 'mill __.publish'],
    ['mill app.test', 'mill mill.scalalib.PublishModule/publishAll --sonatypeCreds "$CREDS"'],
    ['mix hex.build', 'mix hex.publish'],
    ['mix hex.publish --dry-run', 'mix hex.publish --yes'],
    ['cabal upload dist-newstyle/sdist/acme-1.0.tar.gz', 'cabal upload --publish dist-newstyle/sdist/acme-1.0.tar.gz'],
    ['stack upload --candidate .', 'stack upload .'],
    ['luarocks make', 'luarocks upload acme-1.0-1.rockspec'],
    ['pod install', 'pod trunk push Acme.podspec'],
    ['pod repo update', 'pod repo push acme-specs Acme.podspec'],
    ['dune-release lint', 'dune-release'],
    ['dune-release distrib', 'dune-release opam submit'],
    ['cpan-upload --help', 'cpan-upload Acme-Thing-1.0.tar.gz'],
    ['deno publish --dry-run', 'deno publish'],
  ],
  // P3: an app store, an over-the-air update, a model hub — where users and others take what is put
  'app stores, over-the-air updates and model hubs': [
    ['fastlane deliver init', 'fastlane deliver'],
    ['fastlane deliver download_metadata', 'fastlane deliver --submit_for_review'],
    ['fastlane pilot builds', 'fastlane pilot upload'],
    ['fastlane pilot list', 'fastlane pilot distribute'],
    ['fastlane supply init', 'fastlane supply --track production'],
    ['fastlane run increment_build_number', 'fastlane run upload_to_app_store'],
    ['bundle exec fastlane scan', 'bundle exec fastlane supply --aab app.aab'],
    ['eas build --platform ios', 'eas submit --platform ios --latest'],
    ['eas build --profile preview', 'eas build --platform ios --auto-submit'],
    ['eas update --branch preview --message "fix"', 'eas update --branch production --message "fix"'],
    ['eas update --channel staging', 'npx eas-cli update --channel production --auto'],
    ['eas update:list', 'eas submit -p android'],
    ['xcrun notarytool submit app.zip --wait', 'xcrun altool --upload-app -f app.ipa -t ios'],
    ['xcrun simctl list devices', 'xcrun altool --upload-package app.pkg'],
    ['huggingface-cli download gpt2 --local-dir models/gpt2', 'huggingface-cli upload acme/model ./out'],
    ['hf upload acme/model ./out --create-pr', 'hf upload acme/model ./out'],
    ['firebase hosting:channel:deploy preview', 'firebase deploy --only hosting'],
    ['dvc push', 'hf upload-large-folder acme/dataset ./data --repo-type=dataset'],
  ],
});

describe('what the fixes leave as they were', () => {
  test('a family check keeps the say on the verbs it judges itself', async () => {
    assert.equal(await decide('vercel deploy'), 'allow');
    assert.equal(await decide('netlify deploy --dir=build'), 'allow');
    assert.equal(await decide('goreleaser release --snapshot --clean'), 'allow');
    assert.equal(await decide('firebase hosting:channel:deploy feature-login'), 'allow');
    assert.equal(await decide('vercel promote https://acme-x1.vercel.app'), 'deny [families.publish: vercel promote]');
    assert.equal(await decide('supabase db reset'), 'ask [families.infra: supabase db reset]');
    assert.equal(await decide('MIX_ENV=prod mix release'), 'allow');
  });
  test('a lane or a script is the project’s own code', async () => {
    assert.equal(await decide('fastlane ios release'), 'allow');
    assert.equal(await decide('fastlane beta'), 'allow');
    assert.equal(await decide('make release'), 'allow');
    assert.equal(await decide('npm run release'), 'allow');
  });
});
