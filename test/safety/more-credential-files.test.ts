/**
 * Registry and forge logins the red-team's list held that HOME_CREDENTIALS (model/home-credentials.ts) did
 * not: podman/buildah/skopeo's `~/.config/containers/auth.json`, glab's `config.yml`, Composer's
 * `auth.json`, Terraform's `~/.terraformrc`, Helm's registry logins. Reading them is denied as any
 * listed credential file is; the files beside them stay readable.
 */
import { testHoles } from './context.ts';

testHoles({
  'registry and forge logins': [
    ['cat ~/.config/containers/registries.conf', 'cat ~/.config/containers/auth.json'],
    ['ls ~/.config/glab-cli', 'cat ~/.config/glab-cli/config.yml'],
    ['composer install', 'cat ~/.composer/auth.json'],
    ['composer config --list', 'cat ~/.config/composer/auth.json'],
    ['terraform init', 'cat ~/.terraformrc'],
    ['helm registry --help', 'cat ~/.config/helm/registry/config.json'],
  ],
});
