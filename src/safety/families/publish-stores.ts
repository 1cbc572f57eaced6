import { type Hit, hasOption, operandAt, optionValues, type ToolCheck } from './args.ts';
import { onlyNonProduction } from './publish-deploy.ts';

/**
 * The publish family's app stores, over-the-air updates and model hubs: fastlane's own upload
 * tools and actions (not a project's lanes, which are its Fastfile's code like a Makefile's
 * targets), Expo's `eas submit` and production `eas update`, `xcrun altool --upload-app`,
 * snapcraft's uploads and channel releases, and uploads to the Hugging Face Hub. `xcrun notarytool submit` only asks Apple to notarize.
 */

function storeHit(rule: string, does: string): Hit {
  return { rule, reason: `\`${rule}\` ${does}; what users and testers receive from there cannot be called back` };
}

/** fastlane's tools that upload, with the subcommands of theirs that do not. */
const FASTLANE_TOOLS: Record<string, { does: string; local?: readonly string[]; uploads?: readonly string[] }> = {
  deliver: {
    does: 'uploads the app build, its store listing and screenshots to App Store Connect (and with `--submit_for_review` submits it)',
    local: ['init', 'generate_summary', 'download_screenshots', 'download_metadata'],
  },
  supply: { does: 'uploads the app and its store listing to Google Play, by default on the production track', local: ['init'] },
  pilot: { does: 'uploads a build to TestFlight and hands it to its testers', uploads: ['upload', 'distribute'] },
};

/** `fastlane run <action>`: the actions that upload to a store, by their names and aliases. */
const FASTLANE_ACTIONS = new Set([
  'upload_to_app_store',
  'deliver',
  'appstore',
  'upload_to_play_store',
  'supply',
  'upload_to_testflight',
  'pilot',
  'testflight',
]);

const fastlane: ToolCheck = (args) => {
  const i = operandAt(args);
  const first = args[i];
  if (first === undefined) return null;
  const next = args[operandAt(args, undefined, i + 1)];
  if (first === 'run')
    return next !== undefined && FASTLANE_ACTIONS.has(next)
      ? storeHit(`fastlane run ${next}`, 'uploads the app to its store (App Store Connect, TestFlight, Google Play)')
      : null;
  const tool = Object.hasOwn(FASTLANE_TOOLS, first) ? FASTLANE_TOOLS[first]! : null;
  if (!tool) return null;
  if (tool.uploads) return next !== undefined && tool.uploads.includes(next) ? storeHit(`fastlane ${first} ${next}`, tool.does) : null;
  return next !== undefined && tool.local?.includes(next) ? null : storeHit(`fastlane ${first}`, tool.does);
};

/** Whether an update's branches or channels each name only non-production environments (`preview`, `staging`), as deploy workflows do. */
function nonProduction(names: readonly string[]): boolean {
  return names.length > 0 && names.every((n) => onlyNonProduction(n.toLowerCase().split(/[^a-z0-9]+/)));
}

/** `eas` commands that change what a channel's installs download next, unless the branch or channel named is a preview or staging one. */
const EAS_UPDATES = new Set(['update', 'update:republish', 'update:roll-back-to-embedded', 'channel:edit', 'channel:rollout']);

/**
 * Expo: `eas submit` (to the stores), `eas build --auto-submit`, `eas deploy --prod` (EAS Hosting's
 * production site), and over-the-air updates (EAS_UPDATES) unless to a preview or staging branch or
 * channel (a `channel:` command's channel is its first operand).
 */
function eas(program: string): ToolCheck {
  return (args) => {
    const at = operandAt(args);
    const s = args[at];
    if (s === 'submit') return storeHit(`${program} submit`, 'uploads the app build to the App Store or Google Play');
    if (s === 'build' && hasOption(args, '--auto-submit', '--auto-submit-with-profile'))
      return storeHit(`${program} build --auto-submit`, 'builds the app and uploads it to the App Store or Google Play');
    if (s === 'deploy' && hasOption(args, '--prod', '--production'))
      return storeHit(`${program} deploy --prod`, "replaces the project's live EAS Hosting site");
    if (s === undefined || !EAS_UPDATES.has(s)) return null;
    // a channel command points the channel its first operand names (at a branch, which says nothing of who downloads it)
    if (s.startsWith('channel:')) {
      const channel = args[operandAt(args, EAS_VALUED, at + 1)];
      return nonProduction(channel === undefined ? [] : [channel])
        ? null
        : storeHit(`${program} ${s}`, "changes the over-the-air update that the app's installs on that channel download at their next launch");
    }
    return nonProduction(optionValues(args, '--branch', '--channel', '--destination-channel'))
      ? null
      : storeHit(`${program} ${s}`, "sends an over-the-air update that the app's installs on that branch download at their next launch");
  };
}

/** eas options that take a separate value, before a channel's name. */
const EAS_VALUED = new Set(['--branch', '--channel', '--percent', '--runtime-version', '--platform', '-p', '--message', '-m']);

/** `altool --upload-app` / `--upload-package`: a build to App Store Connect (`--notarize-app`, `--validate-app` only check). */
function altool(program: string): ToolCheck {
  return (args) =>
    hasOption(args, '--upload-app', '--upload-package') ? storeHit(`${program} --upload-app`, 'uploads the app build to App Store Connect') : null;
}

/** The Hugging Face Hub: `upload`, `upload-large-folder` commit to the repository's main branch unless `--create-pr`. */
function hub(program: string): ToolCheck {
  return (args) => {
    const s = args[operandAt(args)];
    if ((s !== 'upload' && s !== 'upload-large-folder') || hasOption(args, '--create-pr')) return null;
    return storeHit(`${program} ${s}`, 'commits files to a model, dataset or Space repository on the Hugging Face Hub, which others download or serve from');
  };
}

/** snapcraft's verbs that upload a snap (`push` is `upload`'s old name) or move a store channel's revision (`release`, `promote`, `close`). */
const SNAPCRAFT_STORE = new Set(['upload', 'push', 'release', 'promote', 'close']);

const snapcraft: ToolCheck = (args) => {
  const s = args[operandAt(args)];
  return s !== undefined && SNAPCRAFT_STORE.has(s)
    ? storeHit(
        `snapcraft ${s}`,
        s === 'upload' || s === 'push'
          ? 'uploads a snap to the Snap Store (with `--release`, onto its channels)'
          : "changes what a Snap Store channel's installs update to",
      )
    : null;
};

export const STORE_TOOLS: Record<string, ToolCheck> = {
  snapcraft,
  fastlane,
  eas: eas('eas'),
  'eas-cli': eas('eas-cli'),
  xcrun: (args, env) => {
    const i = operandAt(args);
    return args[i] === 'altool' ? altool('xcrun altool')(args.slice(i + 1), env) : null;
  },
  altool: altool('altool'),
  'huggingface-cli': hub('huggingface-cli'),
  hf: hub('hf'),
};
