import type { Dep, Notes, ProjectFacts, ScanInput } from './facts.ts';
import { baseOf, dirOf, sortedUnique } from './files.ts';
import { stripXmlComments, xmlStartTags, xmlText } from './markup.ts';

const LANGUAGES: Record<string, string> = { csproj: 'C#', fsproj: 'F#', vbproj: 'Visual Basic' };

/** SDKs and what they make of a project. */
const SDKS: Record<string, string> = {
  'microsoft.net.sdk.web': 'ASP.NET Core',
  'microsoft.net.sdk.blazorwebassembly': 'Blazor WebAssembly',
  'microsoft.net.sdk.razor': 'Razor class library',
  'microsoft.net.sdk.worker': 'Worker Service',
};

const TEST_PACKAGES: ReadonlyArray<readonly [pkg: string, label: string]> = [
  ['xunit', 'xUnit'],
  ['xunit.v3', 'xUnit'],
  ['nunit', 'NUnit'],
  ['mstest.testframework', 'MSTest'],
  ['mstest', 'MSTest'],
];

/** True for a .NET project file name. */
export function isDotnetProject(name: string): boolean {
  return /\.(?:cs|fs|vb)proj$/.test(name);
}

/** The .NET project of one *.csproj / *.fsproj / *.vbproj. */
export function detectDotnet(input: ScanInput, path: string, notes: Notes): ProjectFacts | null {
  const text = input.read(path);
  if (text === null) return null;
  const xml = stripXmlComments(text);
  const project = xmlStartTags(xml, 'Project')[0];
  if (!project) {
    notes.add(`\`${path}\` has no <Project> element: skipped`);
    return null;
  }
  const file = baseOf(path);
  const ext = file.slice(file.lastIndexOf('.') + 1);
  const sdk = project.sdk ?? xmlStartTags(xml, 'Sdk')[0]?.name ?? null;
  const frameworks: Dep[] = [];
  const kind = sdk ? SDKS[sdk.split('/')[0]!.toLowerCase()] : undefined;
  if (kind) frameworks.push({ name: kind, version: null });
  const packages = new Map<string, string | null>();
  for (const a of xmlStartTags(xml, 'PackageReference')) {
    const name = a.include ?? a.update;
    if (name) packages.set(name.toLowerCase(), a.version ?? null);
  }
  // <PackageReference Include="x"><Version>1.0</Version></PackageReference>
  for (const m of xml.matchAll(/<PackageReference\s[^>]*Include\s*=\s*["']([^"']+)["'][^>]*>([\s\S]*?)<\/PackageReference\s*>/g)) {
    const v = xmlText(m[2]!, 'Version');
    if (v) packages.set(m[1]!.toLowerCase(), v);
  }
  const testRunners: Dep[] = [];
  for (const [pkg, label] of TEST_PACKAGES) {
    if (packages.has(pkg) && !testRunners.some((t) => t.name === label)) testRunners.push({ name: label, version: packages.get(pkg) ?? null });
  }
  const targets = xmlText(xml, 'TargetFrameworks') ?? xmlText(xml, 'TargetFramework');
  const traits: string[] = [];
  if (sdk) traits.push(`Sdk ${sdk}`);
  const output = xmlText(xml, 'OutputType');
  if (output) traits.push(`OutputType ${output}`);
  if (packages.has('microsoft.net.test.sdk')) traits.push('test project (Microsoft.NET.Test.Sdk)');
  return {
    dir: dirOf(path),
    ecosystem: 'dotnet',
    manifests: [path],
    name: xmlText(xml, 'AssemblyName') ?? file.slice(0, file.lastIndexOf('.')),
    languages: [LANGUAGES[ext] ?? ext],
    tools: ['dotnet'],
    runtime: targets
      ? sortedUnique(
          targets
            .split(';')
            .map((t) => t.trim())
            .filter(Boolean),
        ).join(', ')
      : null,
    frameworks,
    testRunners,
    traits,
  };
}

/** Projects listed in a .sln file: `Project("{...}") = "Name", "path\to\x.csproj", ...`. */
export function parseSln(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^Project\("[^"]*"\)\s*=\s*"[^"]*",\s*"([^"]+\.(?:cs|fs|vb)proj)"/gm)) out.push(m[1]!.replace(/\\/g, '/'));
  return out.sort();
}
