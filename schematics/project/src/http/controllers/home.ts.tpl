import { Controller, Get } from 'keel';

@Controller()
export class HomeController {
  // GET /
  @Get()
  index() {
    return { name: '{{name}}', health: '/health', readiness: '/health/ready' };
  }
}
